package dev.rmqpatch.patches;

import java.util.Arrays;
import java.util.List;

import dev.rmqpatch.patches.transform.MethodEdit;
import dev.rmqpatch.patches.transform.ReplaceCall;

/**
 * P34. Targets: {@code TopicValidator.validateTopic} in rocketmq-common (the broker's check of every sent message's
 * topic, from {@code AbstractSendMessageProcessor.msgCheck}) and {@code Validators.checkTopic} in rocketmq-client (a
 * producer's, twice per send): each one's call of its private {@code regularExpressionMatcher(topic, PATTERN)}.
 * Replacement: codec's {@code ValidNames.regularExpressionMatcher}: for stock's pattern {@code ^[%|a-zA-Z0-9_-]+$} a
 * loop over the name's characters against a table, for any other pattern the pattern's own match.
 * Why: stock runs a regular-expression Matcher per check; upstream replaced the broker's with a lookup table in 4.9.3
 * (#3594); in this project's JDK 8 producer profile the client's check was 1.9% of the patched producer's CPU samples.
 * Tests: see {@link #tests()}; measured: see {@link #benchmark()}.
 */
final class TopicCheckPatch implements Patch {

    @Override
    public String id() {
        return "P34";
    }

    @Override
    public String name() {
        return "topic-check";
    }

    @Override
    public String buys() {
        return "a topic's characters checked with a table, not a regular expression: on the broker per message, in a "
            + "producer twice per send (upstream #3594)";
    }

    @Override
    public String effect() {
        return "TopicValidator.validateTopic (the broker, for every message sent to it) and Validators.checkTopic (a "
            + "producer, twice per send) answer whether a topic has only the characters [%|a-zA-Z0-9_-] by a loop over "
            + "its characters instead of a regular-expression Matcher; the answers, the error responses and the "
            + "exceptions are stock's, for every string.";
    }

    @Override
    public String why() {
        return "Stock compiles nothing per call but allocates and runs a Matcher for every check. In issue 28's JDK 8 "
            + "producer profile (docs/results/clients-2026-11-26-producer-p26-jdk8/flame-patched@8.html) "
            + "Validators.checkTopic was 1.9% of the patched producer's CPU samples; in the master's profile of the "
            + "SYNC_MASTER runs (docs/results/eff-2026-11-25-mssync-cells/flame-4.9.0-patched.html) "
            + "TopicValidator.validateTopic was 0.4% of the patched broker's (docs/send-path.md, row 6). Upstream "
            + "4.9.3 made the broker's check a lookup table (#3594).";
    }

    @Override
    public String verification() {
        return "A topic with a character outside the set is refused as stock refuses it (the broker's SYSTEM_ERROR "
            + "response and remark, the client's MQClientException); a producer's CPU profile no longer shows "
            + "java.util.regex under Validators.checkTopic.";
    }

    @Override
    public String tests() {
        return "PatchedClassesIT; codec: ValidNamesTest";
    }

    @Override
    public String benchmark() {
        return "NameChecksBenchmark";
    }

    @Override
    public ReleaseFit on(Release release) {
        return release.atLeast(Release.V4_9_3) ? ReleaseFit.upstream(
            "4.9.3's TopicValidator checks characters with VALID_CHAR_BIT_MAP, no regular "
            + "expression (read)") : ReleaseFit.APPLIES;
    }

    @Override
    public List<MethodEdit> edits() {
        return Arrays.<MethodEdit>asList(
            new ReplaceCall(Stock.TOPIC_VALIDATOR_VALIDATE_TOPIC, Stock.TOPIC_VALIDATOR_REGEX_MATCHER,
                Codec.VALID_NAMES_MATCHER, 1),
            new ReplaceCall(Stock.VALIDATORS_CHECK_TOPIC, Stock.VALIDATORS_REGEX_MATCHER,
                Codec.VALID_NAMES_MATCHER, 1));
    }
}
