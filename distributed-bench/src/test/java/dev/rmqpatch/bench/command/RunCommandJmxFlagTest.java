package dev.rmqpatch.bench.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.cli.Args;
import dev.rmqpatch.bench.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bench run's --broker-jmx: parsed, deduplicated, checked, and only with --namesrv. */
class RunCommandJmxFlagTest {
    @Test
    void brokerJmxFlagIsParsedAndChecked() throws Exception {
        Args f = RunCommand.FLAGS.parse(new String[] {"--broker-jmx", "10.0.0.1:10914,10.0.0.2:10914", "--broker-jmx=10.0.0.3:11014"});
        assertEquals(List.of("10.0.0.1:10914", "10.0.0.2:10914", "10.0.0.3:11014"), RunCommand.jmxTargets(f));
        assertNull(RunCommand.jmxTargets(RunCommand.FLAGS.parse(new String[0])));
        UsageException bad = assertThrows(UsageException.class,
            () -> RunCommand.jmxTargets(RunCommand.FLAGS.parse(new String[] {"--broker-jmx", "10.0.0.1"})));
        assertTrue(bad.getMessage().contains("--broker-jmx") && bad.getMessage().contains("10.0.0.1"), bad.getMessage());
        UsageException alone = assertThrows(UsageException.class,
            () -> RunCommand.run(new String[] {"--sink", "--broker-jmx", "127.0.0.1:1"}, new PrintStream(new ByteArrayOutputStream())));
        assertTrue(alone.getMessage().contains("--namesrv"), alone.getMessage());
    }
}
