package dev.rmqpatch.bench.pinning;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** CPU numbers in the kernel's list notation, as taskset and /proc/PID/status write them: {@code 0-3,6,8-9}. */
public final class CpuList {
    private CpuList() {
    }

    /** @throws IllegalArgumentException when the text is not such a list */
    public static List<Integer> parse(String text) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : text.trim().split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            try {
                if (dash < 0) {
                    cpus.add(Integer.parseInt(p));
                } else {
                    int from = Integer.parseInt(p.substring(0, dash).trim());
                    int to = Integer.parseInt(p.substring(dash + 1).trim());
                    if (from > to || from < 0) {
                        throw new IllegalArgumentException("bad CPU range '" + p + "' in '" + text + "'");
                    }
                    for (int c = from; c <= to; c++) {
                        cpus.add(c);
                    }
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CPU list: '" + text + "'", e);
            }
        }
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("empty CPU list: '" + text + "'");
        }
        return new ArrayList<>(cpus);
    }

    /** The shortest list notation of the given CPUs, e.g. [0, 1, 2, 5] -> "0-2,5". */
    public static String format(List<Integer> cpus) {
        List<Integer> sorted = new ArrayList<>(new TreeSet<>(cpus));
        StringBuilder s = new StringBuilder();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (s.length() > 0) {
                s.append(',');
            }
            s.append(sorted.get(i));
            if (j > i) {
                s.append('-').append(sorted.get(j));
            }
            i = j + 1;
        }
        return s.toString();
    }
}
