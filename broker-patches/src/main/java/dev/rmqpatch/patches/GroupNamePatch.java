package dev.rmqpatch.patches;

import java.util.Collections;
import java.util.List;

import dev.rmqpatch.patches.transform.EntryHook;
import dev.rmqpatch.patches.transform.MethodEdit;

/** S9: consumer-group names checked before they become topic names and store folders. Codec: {@code GroupNames}. */
final class GroupNamePatch implements Patch {

    @Override
    public String id() {
        return "S9";
    }

    @Override
    public String name() {
        return "group-name-check";
    }

    @Override
    public String buys() {
        return "a consumer group named otherwise than every client allows is not found and not created, so it never "
            + "becomes a folder outside the store";
    }

    @Override
    public String closes() {
        return "consumer-group path traversal (files written outside the store)";
    }

    @Override
    public String fixedUpstream() {
        return "5.1.1 (#6142)";
    }

    @Override
    public String effect() {
        return "A consumer group whose name is not what every RocketMQ client allows ([%|a-zA-Z0-9_-], 1 to 255 "
            + "characters) is not found and not created: CONSUMER_SEND_MSG_BACK answers SUBSCRIPTION_GROUP_NOT_EXIST, "
            + "heartbeats and pulls treat it as unknown, and the broker log names it (first time, then every 1000th).";
    }

    @Override
    public String why() {
        return "The broker makes %RETRY%<group> and %DLQ%<group> topics from the name, and every topic a folder of the "
            + "consume-queue store: a CONSUMER_SEND_MSG_BACK with the group x/../../elsewhere makes a stock 4.9.0 broker "
            + "create folders and write consume-queue files outside its store, from anyone who reaches the port when the "
            + "ACL is off (the default). Topic names have been checked since 4.6.1; group names only since 5.1.1.";
    }

    @Override
    public String verification() {
        return "A CONSUMER_SEND_MSG_BACK with group x/../../elsewhere and delay level -1 answers "
            + "SUBSCRIPTION_GROUP_NOT_EXIST and no folder 'elsewhere' appears beside the store's consumequeue folder.";
    }

    @Override
    public String tests() {
        return "GroupNameExploitIT; codec: GroupNamesTest";
    }

    @Override
    public String benchmark() {
        return "none (a scan of the group name where a group is looked up: heartbeats, pulls, send-backs)";
    }

    @Override
    public List<MethodEdit> edits() {
        return Collections.<MethodEdit>singletonList(
            EntryHook.refusing(Stock.FIND_SUBSCRIPTION_GROUP_CONFIG, Codec.REFUSE_ILLEGAL_GROUP));
    }
}
