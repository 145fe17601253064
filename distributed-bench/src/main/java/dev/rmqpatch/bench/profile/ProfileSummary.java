package dev.rmqpatch.bench.profile;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One variant's profile in numbers: samples per {@link CpuArea}, and self samples per method (the leaf frame). */
public final class ProfileSummary {
    private final long samples;
    private final Map<CpuArea, Long> areaSamples = new EnumMap<>(CpuArea.class);
    private final Map<String, Long> selfSamples = new HashMap<>();

    private ProfileSummary(long samples) {
        this.samples = samples;
    }

    public static ProfileSummary of(CollapsedStacks stacks) {
        ProfileSummary s = new ProfileSummary(stacks.total());
        for (CpuArea a : CpuArea.values()) {
            s.areaSamples.put(a, 0L);
        }
        stacks.stacks().forEach((stack, n) -> {
            List<String> frames = CollapsedStacks.frames(stack);
            s.areaSamples.merge(CpuArea.of(frames), n, Long::sum);
            s.selfSamples.merge(selfName(frames.get(frames.size() - 1)), n, Long::sum);
        });
        return s;
    }

    /** Compiled, inlined and interpreted copies of a method are one method; kernel functions keep their [k] mark. */
    static String selfName(String leaf) {
        String name = CpuArea.methodName(leaf);
        return CpuArea.isKernel(leaf) ? name + " [kernel]" : name;
    }

    public long samples() {
        return samples;
    }

    /** Share of all samples in the area, 0..1 (0 for an empty profile). */
    public double areaShare(CpuArea area) {
        return samples == 0 ? 0 : (double) areaSamples.get(area) / samples;
    }

    public double selfShare(String method) {
        return samples == 0 ? 0 : (double) selfSamples.getOrDefault(method, 0L) / samples;
    }

    /** The n methods with the most self samples, most first (ties by name, so the order is stable). */
    public List<String> topSelf(int n) {
        List<Map.Entry<String, Long>> all = new ArrayList<>(selfSamples.entrySet());
        all.sort((a, b) -> a.getValue().equals(b.getValue()) ? a.getKey().compareTo(b.getKey()) : Long.compare(b.getValue(), a.getValue()));
        List<String> top = new ArrayList<>();
        for (int i = 0; i < Math.min(n, all.size()); i++) {
            top.add(all.get(i).getKey());
        }
        return top;
    }
}
