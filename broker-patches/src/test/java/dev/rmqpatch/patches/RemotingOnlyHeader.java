package dev.rmqpatch.patches;

import org.apache.rocketmq.remoting.CommandCustomHeader;
import org.apache.rocketmq.remoting.annotation.CFNotNull;

/**
 * A custom header of an application that uses rocketmq-remoting alone (as upstream's RemotingCommandTest does): no
 * rocketmq-common class. RemotingAloneIT defines it in loaders that hold remoting without common.
 */
public class RemotingOnlyHeader implements CommandCustomHeader {
    @CFNotNull
    private String name;
    private Integer count;
    private Long offset;
    private boolean flag;
    private Double ratio;

    @Override
    public void checkFields() {
    }

    public void fill(String name, Integer count, Long offset, boolean flag, Double ratio) {
        this.name = name;
        this.count = count;
        this.offset = offset;
        this.flag = flag;
        this.ratio = ratio;
    }

    @Override
    public String toString() {
        return "name=" + name + " count=" + count + " offset=" + offset + " flag=" + flag + " ratio=" + ratio;
    }
}
