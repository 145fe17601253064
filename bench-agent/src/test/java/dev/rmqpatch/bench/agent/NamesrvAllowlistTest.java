package dev.rmqpatch.bench.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.rmqpatch.bench.protocol.PrepareRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class NamesrvAllowlistTest {

    private static PrepareRequest prepare(String namesrv) {
        PrepareRequest p = new PrepareRequest();
        p.namesrv = namesrv;
        p.topics = List.of("t");
        return p;
    }

    @Test
    void withoutAListOnlyLoopbackNameServersAreAllowed() {
        NamesrvAllowlist loopback = NamesrvAllowlist.of(List.of());
        for (String ok : List.of("127.0.0.1:9876", "127.3.4.5:1", "localhost:9876", "[::1]:9876")) {
            loopback.check(prepare(ok));
        }
        for (String bad : List.of("10.0.0.5:9876", "127.0.0.1.evil.example:9876", "example.com:9876", "0.0.0.0:9876", "127.0.0.1:9876;10.0.0.5:9876")) {
            assertThrows(NamesrvAllowlist.NotAllowedException.class, () -> loopback.check(prepare(bad)), bad);
        }
    }

    @Test
    void withAListExactlyThoseAddressesAreAllowed() {
        NamesrvAllowlist list = NamesrvAllowlist.of(List.of("10.0.0.5:9876;10.0.0.6:9876"));
        list.check(prepare("10.0.0.5:9876"));
        list.check(prepare("10.0.0.6:9876;10.0.0.5:9876"));
        for (String bad : List.of("10.0.0.5:9877", "10.0.0.7:9876", "127.0.0.1:9876", "10.0.0.5:9876;10.0.0.8:9876")) {
            NamesrvAllowlist.NotAllowedException e = assertThrows(NamesrvAllowlist.NotAllowedException.class, () -> list.check(prepare(bad)), bad);
            assertFalse(e.getMessage().contains("[10.0.0.5:9876]"), "only the refused addresses are named: " + e.getMessage());
        }
    }

    @Test
    void everyTargetOfASwitchingRunIsChecked() {
        NamesrvAllowlist list = NamesrvAllowlist.of(List.of("10.0.0.5:9876"));
        PrepareRequest p = prepare(null);
        p.targets = List.of(new PrepareRequest.Target("10.0.0.5:9876", List.of("t")), new PrepareRequest.Target("10.6.6.6:9876", List.of("t")));
        NamesrvAllowlist.NotAllowedException e = assertThrows(NamesrvAllowlist.NotAllowedException.class, () -> list.check(p));
        assertTrue(e.getMessage().contains("10.6.6.6:9876"), e.getMessage());
    }

    @Test
    void aRequestWithoutNameServerAndBadListEntriesAreErrors() {
        assertThrows(IllegalArgumentException.class, () -> NamesrvAllowlist.of(List.of()).check(prepare(null)));
        for (String bad : List.of("10.0.0.5", "10.0.0.5:", ":9876", "host:port")) {
            assertThrows(IllegalArgumentException.class, () -> NamesrvAllowlist.of(List.of(bad)), bad);
        }
    }

    @Test
    void theAgentRefusesAndStaysIdle() throws Exception {
        Agent agent = new Agent("a", NamesrvAllowlist.of(List.of("10.0.0.5:9876")));
        Agent.AgentException e = assertThrows(Agent.AgentException.class, () -> agent.prepare(prepare("10.9.9.9:9876")));
        assertEquals(403, e.status());
        assertEquals("IDLE", agent.status().state);
    }
}
