package dev.rmqpatch.patches.build;

import java.util.List;
import java.util.Map;

import dev.rmqpatch.patches.Patch;
import dev.rmqpatch.patches.transform.MethodEdit;

/** Renders PATCHES.md for the patched distribution from the patch classes themselves, so the two cannot drift. */
final class PatchesDoc {

    private PatchesDoc() {
    }

    static String render(String rocketmqVersion, List<Patch> patches, Map<String, List<String>> applied, String codecJar) {
        StringBuilder sb = new StringBuilder();
        sb.append("# rmqpatch patches for RocketMQ ").append(rocketmqVersion).append("\n\n");
        sb.append("This distribution is stock RocketMQ ").append(rocketmqVersion)
            .append(" with a few class files rewritten to call the rmqpatch codec (`lib/").append(codecJar)
            .append("`). No RocketMQ source was changed or recompiled; the jars keep their names.\n\n");
        sb.append("## Check what is installed\n\n");
        sb.append("```bash\nbin/rmqpatch-info                       # this distribution's lib/\n")
            .append("bin/rmqpatch-info /opt/rocketmq/lib     # any RocketMQ lib/ folder\n")
            .append("java -jar tools/rmqpatch-info.jar --list-patches /opt/rocketmq/lib   # the same, JDK 8+, no script\n```\n\n")
            .append("Exit status 0: patched jars and the codec jar present; 1: no patches (stock lib/); 3: patched jars\n")
            .append("but no codec jar (the broker would fail with NoClassDefFoundError); 2: usage or I/O error.\n\n");
        sb.append("Each rewritten jar carries the manifest attribute `").append(JarPatcher.MANIFEST_ATTRIBUTE)
            .append("`. In this build:\n\n| jar | patches |\n|---|---|\n");
        for (Map.Entry<String, List<String>> e : applied.entrySet()) {
            sb.append("| `").append(e.getKey()).append("` | ").append(String.join(", ", e.getValue())).append(" |\n");
        }
        sb.append("| `").append(codecJar).append("` | (the codec the patches call) |\n\n");
        sb.append("## Install into an existing ").append(rocketmqVersion).append(" broker\n\n");
        sb.append("Stop the broker, keep a copy of its `lib/`, copy the jars listed above from this `lib/` over the\n")
            .append("ones of the same name and add the codec jar, run `bin/rmqpatch-info <lib>`, start the broker.\n")
            .append("To roll back, put the saved jars back and remove the codec jar.\n\n");
        sb.append("Transient properties: `WAIT` is never stored by P3. Add keys of your own with\n")
            .append("`JAVA_OPT=\"-Drmqpatch.transientProperties=KEY1,KEY2\"` (read once at start).\n\n");
        for (Patch p : patches) {
            sb.append("## ").append(p.id()).append(" ").append(p.name()).append("\n\n");
            sb.append("**Effect.** ").append(p.effect()).append("\n\n");
            sb.append("**Why.** ").append(p.why()).append("\n\n");
            sb.append("**Targets.**\n\n");
            for (MethodEdit edit : p.edits()) {
                sb.append("- ").append(edit.describe()).append("\n");
            }
            sb.append("\n**Verify.** ").append(p.verification()).append("\n\n");
            sb.append("**Tested by** ").append(p.tests()).append(" (run by `mvn -B verify`). ")
                .append("**Measured by** JMH `").append(p.benchmark()).append("` (module jmh-benchmarks).\n\n");
        }
        return sb.toString();
    }
}
