package dev.rmqpatch.bench.protocol;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;

/** The one Gson configuration for the agent protocol and the results files. */
public final class Json {
    public static final Gson GSON = new GsonBuilder().serializeSpecialFloatingPointValues().create();
    public static final Gson PRETTY = new GsonBuilder().serializeSpecialFloatingPointValues().setPrettyPrinting()
        .disableHtmlEscaping().create();

    private Json() {
    }
}
