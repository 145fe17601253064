package dev.rmqpatch.codec.header;

import java.util.Map;

import org.apache.rocketmq.remoting.CommandCustomHeader;

/**
 * An encode-only, reflection-free writer of one header class into the ext fields, as a later release's stock
 * {@code makeCustomHeaderToNet()} writes it (the {@code RpcHeaderEncoders}: 4.9.7+). Not a {@link HeaderCodec}: its
 * methods have other names, so that no call of the 4.9.0 codecs (P1, P4, P10, P11 as written) can reach these, which
 * read members 4.9.0's header classes lack (ReleasePlan's CodecLinks witness follows calls by name and descriptor).
 * The implementations are compiled against 4.9.7's headers, from src/main/java-rpc.
 */
public interface HeaderEncoder<T extends CommandCustomHeader> {

    /** The header class this encoder handles; the registry matches it exactly (no subclasses). */
    Class<T> headerClass();

    /**
     * Puts every non-null field of {@code header} into {@code extFields} as its {@code toString()}, in the order the
     * release's stock reflection puts them in (which decides the order of colliding keys in the map, and so on the wire).
     */
    void write(T header, Map<String, String> extFields);
}
