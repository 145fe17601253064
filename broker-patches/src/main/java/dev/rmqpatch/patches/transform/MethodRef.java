package dev.rmqpatch.patches.transform;

/** A method named the way the JVM names it: internal owner name, method name, descriptor. */
public final class MethodRef {

    public final String owner;
    public final String name;
    public final String desc;

    public MethodRef(String owner, String name, String desc) {
        this.owner = owner;
        this.name = name;
        this.desc = desc;
    }

    public boolean matches(String owner, String name, String desc) {
        return this.owner.equals(owner) && this.name.equals(name) && this.desc.equals(desc);
    }

    /** "RemotingCommand.decodeCommandCustomHeader": the class's simple name (inner classes keep their $) and the method. */
    public String shortName() {
        return owner.substring(owner.lastIndexOf('/') + 1) + "." + name;
    }

    @Override
    public String toString() {
        return owner.replace('/', '.') + "." + name + desc;
    }
}
