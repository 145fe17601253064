package dev.rmqpatch.bench.profile;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import one.convert.Arguments;
import one.convert.FlameGraph;

/**
 * An interactive HTML flame graph (search, zoom, reverse) from collapsed stacks, written by async-profiler's own
 * converter ({@code tools.profiler:jfr-converter}), so a profile merged over several windows or rounds looks exactly
 * like one the profiler wrote itself.
 */
public final class FlameGraphHtml {
    private FlameGraphHtml() {
    }

    public static void write(CollapsedStacks stacks, String title, Path html) throws IOException {
        StringBuilder text = new StringBuilder();
        stacks.stacks().forEach((stack, n) -> text.append(stack).append(' ').append(n).append('\n'));
        FlameGraph graph = new FlameGraph(new Arguments("--title", title));
        graph.parseCollapsed(new StringReader(text.toString()));
        Files.createDirectories(html.toAbsolutePath().getParent());
        try (PrintStream out = new PrintStream(Files.newOutputStream(html), false, StandardCharsets.UTF_8)) {
            graph.dump(out);
        }
    }
}
