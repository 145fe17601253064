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
     * Builds the header through its setters, then runs its {@code checkFields()} as stock does.
     *
     * @param extFields the command's ext fields; null means every field is absent
     * A field that is absent, or whose number does not parse, is logged as stock logs it and left at the header's
     * default, as stock 4.9.0 leaves it (the request is then served); {@code extFields == null} gives the empty header
     * without {@code checkFields()}, as stock.
     *
     * @throws RemotingCommandException what the header's {@code checkFields()} throws, as stock
     */
    T decode(Map<String, String> extFields) throws RemotingCommandException;

    /** Puts every non-null field of {@code header} into {@code extFields} as its {@code toString()}, like stock. */
    void encode(T header, Map<String, String> extFields);
}
