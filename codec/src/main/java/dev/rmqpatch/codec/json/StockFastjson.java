package dev.rmqpatch.codec.json;

import com.alibaba.fastjson.JSON;
import com.alibaba.fastjson.parser.Feature;
import com.alibaba.fastjson.serializer.SerializerFeature;

/**
 * Whether fastjson in this JVM still parses and prints with the defaults fastjson 1.2.76 ships with. The
 * hand-written header reader and writer reproduce what fastjson does under those defaults; fastjson's feature
 * masks are public mutable statics (and a {@code fastjson.properties} on the class path changes them at start),
 * so both check them on every call and hand the header back to fastjson when they have changed.
 */
final class StockFastjson {

    /** {@code JSON.DEFAULT_PARSER_FEATURE} as fastjson 1.2.76 initialises it. */
    static final int SHIPPED_PARSER_FEATURES = Feature.AutoCloseSource.mask | Feature.InternFieldNames.mask
        | Feature.UseBigDecimal.mask | Feature.AllowUnQuotedFieldNames.mask | Feature.AllowSingleQuotes.mask
        | Feature.AllowArbitraryCommas.mask | Feature.SortFeidFastMatch.mask | Feature.IgnoreNotMatch.mask;

    /**
     * Parser features that {@code fastjson.properties} may add and that change nothing the reader accepts: it
     * takes only string keys, and only exact enum names.
     */
    static final int HARMLESS_PARSER_FEATURES = Feature.NonStringKeyAsString.mask | Feature.ErrorOnEnumNotMatch.mask;

    /** {@code JSON.DEFAULT_GENERATE_FEATURE} as fastjson 1.2.76 initialises it. */
    static final int SHIPPED_GENERATE_FEATURES = SerializerFeature.QuoteFieldNames.mask
        | SerializerFeature.SkipTransientField.mask | SerializerFeature.WriteEnumUsingName.mask
        | SerializerFeature.SortField.mask;

    private StockFastjson() {
    }

    static boolean parsesAsShipped() {
        return (JSON.DEFAULT_PARSER_FEATURE & ~HARMLESS_PARSER_FEATURES) == SHIPPED_PARSER_FEATURES;
    }

    static boolean printsAsShipped() {
        return JSON.DEFAULT_GENERATE_FEATURE == SHIPPED_GENERATE_FEATURES;
    }
}
