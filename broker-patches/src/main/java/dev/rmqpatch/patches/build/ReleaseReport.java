package dev.rmqpatch.patches.build;

import java.util.Locale;

import dev.rmqpatch.patches.Release;

/**
 * A {@link ReleaseSelection} as text and as JSON: one row per patch (applied, already upstream, needs variant, refused
 * by witness, with the reason), the start-up report and the counts. The same report for {@code plan} (what patch-lib
 * would do) and inside a patched lib/ (what it did); it names no path, so two runs on equal input give equal bytes.
 */
public final class ReleaseReport {

    private ReleaseReport() {
    }

    /** The table. */
    public static String text(ReleaseSelection s) {
        ReleaseLib lib = s.lib();
        StringBuilder sb = new StringBuilder();
        sb.append("RocketMQ ").append(lib.release()).append(" (MQVersion ").append(lib.mqVersionConstant()).append(", ")
            .append(lib.rocketmqJars().size()).append(" RocketMQ jars)");
        sb.append(s.supported() ? ": the patches declared for " + lib.release() + ", checked by their witnesses\n"
            : ": not a release the patches declare themselves for; the patches as written, for reading only\n");
        sb.append(String.format(Locale.ROOT, "%-34s %-19s %s%n", "patch", "outcome", "reason"));
        for (ReleaseSelection.Row r : s.rows()) {
            String reason = r.outcome == ReleaseSelection.Outcome.REFUSED ? r.witnessKind + ": " + r.reason
                : r.outcome == ReleaseSelection.Outcome.APPLIED && !r.reason.isEmpty() ? "as variant: " + r.reason : r.reason;
            if (r.outcome != ReleaseSelection.Outcome.APPLIED && r.outcome != ReleaseSelection.Outcome.REFUSED) {
                reason = reason + " [as written: " + asWritten(r.asWritten) + "]";
            }
            sb.append(String.format(Locale.ROOT, "%-34s %-19s %s", r.label, r.outcome.text(), reason).trim()).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%-34s %-19s %s", "start-up report",
            s.startupReport().applies() ? "applied" : "refused by witness",
            s.startupReport().applies() ? "" : s.startupReport().kind + ": " + s.startupReport().reason).trim()).append('\n');
        sb.append(summary(s)).append('\n');
        return sb.toString();
    }

    /** "24 applied, 12 already upstream, 7 need a variant, 0 refused by witness; start-up report applied". */
    public static String summary(ReleaseSelection s) {
        if (!s.supported()) {
            return "RocketMQ " + s.lib().release() + ": no patch declared (supported releases: "
                + Release.supported() + ")";
        }
        return s.count(ReleaseSelection.Outcome.APPLIED) + " applied, " + s.count(ReleaseSelection.Outcome.UPSTREAM)
            + " already upstream, " + s.count(ReleaseSelection.Outcome.NEEDS_VARIANT) + " need a variant, "
            + s.count(ReleaseSelection.Outcome.REFUSED) + " refused by witness; start-up report "
            + (s.startupReport().applies() ? "applied" : "refused by witness");
    }

    private static String asWritten(ReleasePlan.Outcome o) {
        if (o.applies()) {
            return "its edits fit";
        }
        return "refused, " + o.kind;
    }

    /** The same as JSON. */
    public static String json(ReleaseSelection s) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\n  \"release\": ").append(str(s.lib().release()))
            .append(",\n  \"mqVersion\": ").append(str(s.lib().mqVersionConstant()))
            .append(",\n  \"supported\": ").append(s.supported())
            .append(",\n  \"applied\": ").append(s.count(ReleaseSelection.Outcome.APPLIED))
            .append(",\n  \"alreadyUpstream\": ").append(s.count(ReleaseSelection.Outcome.UPSTREAM))
            .append(",\n  \"needsVariant\": ").append(s.count(ReleaseSelection.Outcome.NEEDS_VARIANT))
            .append(",\n  \"refusedByWitness\": ").append(s.count(ReleaseSelection.Outcome.REFUSED))
            .append(",\n  \"startupReport\": {\"outcome\": ")
            .append(str(s.startupReport().applies() ? "applied" : "refused by witness"))
            .append(", \"reason\": ").append(str(s.startupReport().applies() ? "" : s.startupReport().reason)).append('}')
            .append(",\n  \"patches\": [");
        for (int i = 0; i < s.rows().size(); i++) {
            ReleaseSelection.Row r = s.rows().get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("    {\"id\": ").append(str(r.id))
                .append(", \"label\": ").append(str(r.label))
                .append(", \"outcome\": ").append(str(r.outcome.text()))
                .append(", \"reason\": ").append(str(r.reason))
                .append(", \"witnessKind\": ").append(r.witnessKind == null ? "null" : str(r.witnessKind))
                .append(", \"asWritten\": ").append(str(r.asWritten.applies() ? "applies" : "refused"))
                .append(", \"asWrittenKind\": ").append(r.asWritten.kind == null ? "null" : str(r.asWritten.kind))
                .append(", \"asWrittenReason\": ").append(str(r.asWritten.applies() ? "" : r.asWritten.reason))
                .append('}');
        }
        return sb.append("\n  ]\n}\n").toString();
    }

    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }
}
