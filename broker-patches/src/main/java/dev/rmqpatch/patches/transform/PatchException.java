package dev.rmqpatch.patches.transform;

/** A patch could not be applied as written: the build stops and this message says which patch and where. */
public final class PatchException extends Exception {

    private static final long serialVersionUID = 1L;

    public PatchException(String message) {
        super(message);
    }
}
