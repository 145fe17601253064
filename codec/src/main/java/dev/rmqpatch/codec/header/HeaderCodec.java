package dev.rmqpatch.codec.header;

import java.util.Map;

import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.exception.RemotingCommandException;

/**
 * A hand-written, reflection-free codec for one remoting custom header class: the ext-fields map of a
 * {@code RemotingCommand} to the header object and back. Field names on the wire are the header's Java field
 * names, as stock {@code RemotingCommand} derives them by reflection.
 */
public interface HeaderCodec<T extends CommandCustomHeader> {

    /** The header class this codec handles; the registry matches it exactly (no subclasses). */
    Class<T> headerClass();

    /**
     * Builds a fully populated header through its setters, then runs its {@code checkFields()} as stock does.
     *
     * @param extFields the command's ext fields; null means every field is absent
     * @throws RemotingCommandException naming the field when a required field is missing or a number is malformed;
     *                                  never returns a half-filled header
     */
    T decode(Map<String, String> extFields) throws RemotingCommandException;

    /** Puts every non-null field of {@code header} into {@code extFields} as its {@code toString()}, like stock. */
    void encode(T header, Map<String, String> extFields);
}
