package dev.rmqpatch.jmh;

import java.util.HashMap;
import java.util.Map;

import org.apache.rocketmq.common.protocol.header.SendMessageRequestHeader;

/**
 * What one pass of {@link SendPathBenchmark} produces, returned so that JMH consumes all of it and the tests can
 * check that both sides did the same work.
 */
public final class SendPathResult {
    /** The request header the send processor works with (V1, converted from the decoded V2). */
    public final SendMessageRequestHeader header;
    /** The message's properties map: the parsed request properties plus CLUSTER. */
    public final Map<String, String> properties;
    /** The properties as the CommitLog writes them (UTF-8). */
    public final byte[] storedProperties;
    /** Whether the send processor saw TRAN_MSG=true and would take the transactional path. */
    public final boolean transactional;
    /** The response's ext fields after the response header was encoded. */
    public final HashMap<String, String> responseExtFields;

    public SendPathResult(SendMessageRequestHeader header, Map<String, String> properties, byte[] storedProperties,
                          boolean transactional, HashMap<String, String> responseExtFields) {
        this.header = header;
        this.properties = properties;
        this.storedProperties = storedProperties;
        this.transactional = transactional;
        this.responseExtFields = responseExtFields;
    }
}
