package dev.rmqpatch.bench.profile;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.AgentLoadException;
import org.junit.jupiter.api.Test;

class AsyncProfilerTest {
    @Test
    void aJdk8TargetsBareZeroIsASuccessAndAnyOtherAnswerIsNot() {
        assertTrue(AsyncProfiler.isJdk8Success(new AgentLoadException("0")));
        assertTrue(AsyncProfiler.isJdk8Success(new AgentLoadException("0 ")));
        assertFalse(AsyncProfiler.isJdk8Success(new AgentLoadException("200")));
        assertFalse(AsyncProfiler.isJdk8Success(new AgentLoadException("Failed to load agent library")));
        assertFalse(AsyncProfiler.isJdk8Success(new AgentLoadException(null)));
    }
}
