import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Reads the surefire XML reports scripts/upstream-tests.sh collects and writes its comparison (JSON, tables) and the
 * stock baseline. Launched as a single-file program on JDK 17 ({@code java UpstreamReport.java MODE ...}) so the
 * script needs nothing but the JDK that runs Maven.
 *
 * <p>Layout read: OUT/SIDE/run-K/MODULE/.../TEST-*.xml, SIDE stock or patched, K 0 for the whole run and 1.. for
 * reruns of single tests.
 *
 * <p>Modes: {@code counts DIR} (one line of counts of the reports under DIR); {@code failing --dir SIDE_DIR
 * [--reference-dir STOCK_DIR | --reference-baseline FILE]} (the tests to rerun, one "module class method" a line:
 * without a reference every test that did not pass in run 0; with one, the tests the reference passed that have not
 * passed in any run yet); {@code write --out OUT ...} (results.json, summary.md, comparison.txt; exit 1 on a
 * regression).
 */
public class UpstreamReport {

  enum St { PASSED, FAILED, ERROR, SKIPPED }

  /** One test's outcomes on one side: index = run number, null = not run then. */
  static final class Runs {
    final List<St> runs = new ArrayList<>();

    void set(int run, St st) {
      while (runs.size() <= run) runs.add(null);
      St old = runs.get(run);
      // A method reported twice in one run (a class-level failure besides the method): keep the worse.
      if (old == null || st.ordinal() > old.ordinal() && st != St.SKIPPED) runs.set(run, st);
    }

    St first() { return runs.isEmpty() ? null : runs.get(0); }

    boolean everPassed() { return runs.contains(St.PASSED); }

    int failedCount() {
      return (int) runs.stream().filter(s -> s == St.FAILED || s == St.ERROR).count();
    }

    int runCount() { return (int) runs.stream().filter(s -> s != null).count(); }

    /** Final status: passed when any run passed, else the first run's. */
    St fin() { return everPassed() ? St.PASSED : first(); }
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) die("usage: UpstreamReport counts|failing|write ...");
    Map<String, String> opt = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--")) {
        if (i + 1 < args.length && !args[i + 1].startsWith("--")) opt.put(args[i], args[++i]);
        else opt.put(args[i], "true");
      } else {
        opt.put("arg", args[i]);
      }
    }
    switch (args[0]) {
      case "counts": {
        Map<String, Runs> t = new TreeMap<>();
        readRun(Paths.get(opt.get("arg")), "", 0, t);
        System.out.println(countLine(t, 0));
        break;
      }
      case "failing": failing(opt); break;
      case "write": System.exit(write(opt)); break;
      default: die("unknown mode " + args[0]);
    }
  }

  static void die(String msg) {
    System.err.println("UpstreamReport: " + msg);
    System.exit(3);
  }

  // ---- reading surefire reports ----------------------------------------------------------------------------------

  /** Reads every TEST-*.xml under dir into tests (key module/class#method), as run number run. */
  static void readRun(Path dir, String module, int run, Map<String, Runs> tests) throws Exception {
    if (!Files.isDirectory(dir)) return;
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> p.getFileName().toString().startsWith("TEST-") && p.toString().endsWith(".xml"))
          .sorted().collect(Collectors.toList());
    }
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    for (Path p : files) {
      Element root;
      try {
        root = f.newDocumentBuilder().parse(p.toFile()).getDocumentElement();
      } catch (Exception e) {
        System.err.println("UpstreamReport: unreadable report " + p + ": " + e.getMessage());
        continue;
      }
      NodeList cases = root.getElementsByTagName("testcase");
      for (int i = 0; i < cases.getLength(); i++) {
        Element c = (Element) cases.item(i);
        String cls = c.getAttribute("classname");
        String name = c.getAttribute("name");
        if (cls.isEmpty()) cls = root.getAttribute("name");
        St st = St.PASSED;
        for (Node n = c.getFirstChild(); n != null; n = n.getNextSibling()) {
          if (!(n instanceof Element)) continue;
          switch (n.getNodeName()) {
            case "failure": st = St.FAILED; break;
            case "error": if (st != St.FAILED) st = St.ERROR; break;
            case "skipped": if (st == St.PASSED) st = St.SKIPPED; break;
            default: break;
          }
        }
        tests.computeIfAbsent(module + "/" + cls + "#" + name, k -> new Runs()).set(run, st);
      }
    }
  }

  /** OUT/SIDE: every run-K/MODULE. */
  static Map<String, Runs> readSide(Path sideDir) throws Exception {
    Map<String, Runs> tests = new TreeMap<>();
    if (!Files.isDirectory(sideDir)) return tests;
    List<Path> runs;
    try (Stream<Path> s = Files.list(sideDir)) {
      runs = s.filter(p -> p.getFileName().toString().matches("run-\\d+")).collect(Collectors.toList());
    }
    runs.sort(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().substring(4))));
    for (Path r : runs) {
      int k = Integer.parseInt(r.getFileName().toString().substring(4));
      try (Stream<Path> s = Files.list(r)) {
        for (Path m : s.filter(Files::isDirectory).sorted().collect(Collectors.toList())) {
          readRun(m, m.getFileName().toString(), k, tests);
        }
      }
    }
    return tests;
  }

  static String module(String key) { return key.substring(0, key.indexOf('/')); }

  static String countLine(Map<String, Runs> t, int run) {
    int[] c = new int[St.values().length];
    int n = 0;
    for (Runs r : t.values()) {
      St s = run < r.runs.size() ? r.runs.get(run) : null;
      if (s == null) continue;
      n++;
      c[s.ordinal()]++;
    }
    return n + " tests, " + c[0] + " passed, " + c[1] + " failed, " + c[2] + " errors, " + c[3] + " skipped";
  }

  // ---- failing -------------------------------------------------------------------------------------------------------

  static void failing(Map<String, String> opt) throws Exception {
    Map<String, Runs> side = readSide(Paths.get(req(opt, "--dir")));
    Map<String, String> ref = null;
    if (opt.containsKey("--reference-dir")) {
      ref = new TreeMap<>();
      for (Map.Entry<String, Runs> e : readSide(Paths.get(opt.get("--reference-dir"))).entrySet()) {
        ref.put(e.getKey(), e.getValue().fin() == St.PASSED ? "passed" : "other");
      }
    } else if (opt.containsKey("--reference-baseline")) {
      ref = baselineTests(opt.get("--reference-baseline"));
    }
    for (Map.Entry<String, Runs> e : side.entrySet()) {
      Runs r = e.getValue();
      boolean pick;
      if (ref == null) pick = r.first() == St.FAILED || r.first() == St.ERROR;
      else pick = !r.everPassed() && r.first() != St.SKIPPED && "passed".equals(ref.get(e.getKey()));
      if (!pick) continue;
      String key = e.getKey();
      String cls = key.substring(key.indexOf('/') + 1, key.indexOf('#'));
      String meth = key.substring(key.indexOf('#') + 1);
      // Only what surefire's -Dtest=Class#method can name; a class-level entry reruns the class.
      if (!meth.matches("[A-Za-z0-9_$]+")) meth = "*";
      System.out.println(module(key) + " " + cls + " " + meth);
    }
  }

  static String req(Map<String, String> opt, String k) {
    String v = opt.get(k);
    if (v == null) die("missing " + k);
    return v;
  }

  // ---- write -----------------------------------------------------------------------------------------------------------

  static int write(Map<String, String> opt) throws Exception {
    Path out = Paths.get(req(opt, "--out"));
    Map<String, Runs> stock = readSide(out.resolve("stock"));
    Map<String, Runs> patched = readSide(out.resolve("patched"));
    boolean haveStock = Files.isDirectory(out.resolve("stock"));
    boolean havePatched = Files.isDirectory(out.resolve("patched"));
    boolean filtered = opt.containsKey("--filtered");
    List<String> modules = List.of(req(opt, "--modules").split(","));

    Map<String, String> base = new TreeMap<>();
    Map<String, String> flaky = new TreeMap<>();
    String basePath = opt.get("--baseline");
    if (basePath != null) {
      base = baselineTests(basePath);
      flaky = baselineFlaky(basePath);
    }

    TreeSet<String> keys = new TreeSet<>();
    keys.addAll(stock.keySet());
    keys.addAll(patched.keySet());
    if (havePatched && !haveStock && !filtered) {
      for (String k : base.keySet()) if (modules.contains(module(k))) keys.add(k);
    }

    List<String> regressions = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    StringBuilder json = new StringBuilder();
    json.append("{\n");
    kv(json, "command", opt.get("--command")).append(",\n");
    kv(json, "started", opt.get("--started")).append(",\n");
    kv(json, "finished", Instant.now().toString()).append(",\n");
    kv(json, "testJdk", opt.get("--jdk")).append(",\n");
    kv(json, "modules", opt.get("--modules")).append(",\n");
    kv(json, "disabledPatches", opt.getOrDefault("--disable", "")).append(",\n");
    kv(json, "baseline", basePath == null ? "" : basePath).append(",\n");
    json.append("  \"tests\": [\n");
    boolean firstTest = true;
    for (String k : keys) {
      Runs s = stock.get(k);
      Runs p = patched.get(k);
      String b = base.get(k);
      // What stock says: this run's stock side when there is one, else the baseline.
      boolean refPassed;
      boolean refFlaky = flaky.containsKey(k);
      if (haveStock) {
        refPassed = s != null && s.fin() == St.PASSED;
        if (s != null && s.everPassed() && s.first() != St.PASSED) refFlaky = true;
      } else {
        refPassed = "passed".equals(b);
      }
      String verdict = "";
      if (havePatched && refPassed) {
        if (p == null) verdict = filtered ? "" : "missing on patched";
        else if (!p.everPassed()) verdict = "not passed on patched";
        else if (p.first() != St.PASSED) verdict = "passed on patched only on rerun";
        if (!verdict.isEmpty()) {
          String line = k + ": " + verdict + " (patched runs: " + runsText(p) + ")";
          if (verdict.startsWith("passed on patched only")) notes.add(line);
          else if (refFlaky) notes.add(line + " [named flaky on stock: not fatal]");
          else regressions.add(line);
        }
      } else if (havePatched && p != null && p.everPassed() && haveStock && s != null && !s.everPassed()) {
        notes.add(k + ": passes on patched, not on stock (stock runs: " + runsText(s) + ")");
      }
      if (haveStock && s != null && b != null && "passed".equals(b) && !s.everPassed()) {
        notes.add(k + ": passed in the baseline, not on stock in this run (stock runs: " + runsText(s) + ")");
      }
      if (!firstTest) json.append(",\n");
      firstTest = false;
      json.append("    {");
      kv0(json, "test", k);
      if (s != null) json.append(", \"stock\": ").append(runsJson(s));
      if (p != null) json.append(", \"patched\": ").append(runsJson(p));
      if (b != null) json.append(", ").append(q("baseline")).append(": ").append(q(b));
      if (!verdict.isEmpty()) json.append(", \"verdict\": ").append(q(verdict));
      json.append("}");
    }
    json.append("\n  ],\n");
    json.append("  \"regressions\": ").append(strList(regressions)).append(",\n");
    json.append("  \"notes\": ").append(strList(notes)).append("\n}\n");
    Files.writeString(out.resolve("results.json"), json.toString());

    // The table per module: first runs (counts as upstream's own report would give them), plus regressions.
    StringBuilder md = new StringBuilder();
    md.append("Command: `").append(opt.get("--command")).append("`  \n");
    md.append("Started ").append(opt.get("--started")).append(", finished ").append(Instant.now()).append("; test JVMs: ")
        .append(opt.get("--jdk")).append(opt.containsKey("--disable") ? "; patches off: " + opt.get("--disable") : "")
        .append("\n\n");
    md.append("| module | stock: tests / passed / failed / errors / skipped | patched: tests / passed / failed / errors / skipped | regressions |\n");
    md.append("|---|---|---|---|\n");
    int[] tot = new int[11];
    for (String m : modules) {
      int[] sc = counts(stock, m);
      int[] pc = counts(patched, m);
      int reg = (int) regressions.stream().filter(r -> r.startsWith(m + "/")).count();
      md.append("| ").append(m).append(" | ").append(haveStock ? cells(sc) : "not run").append(" | ")
          .append(havePatched ? cells(pc) : "not run").append(" | ").append(havePatched ? String.valueOf(reg) : "")
          .append(" |\n");
      for (int i = 0; i < 5; i++) { tot[i] += sc[i]; tot[5 + i] += pc[i]; }
      tot[10] += reg;
    }
    md.append("| **all** | ").append(haveStock ? cells(java.util.Arrays.copyOfRange(tot, 0, 5)) : "not run").append(" | ")
        .append(havePatched ? cells(java.util.Arrays.copyOfRange(tot, 5, 10)) : "not run").append(" | ")
        .append(havePatched ? String.valueOf(tot[10]) : "").append(" |\n");
    md.append("\nCounts are of each side's whole run (run 0); a test that passed only on a rerun counts as failed here. ")
        .append("Regressions: passed on stock").append(haveStock ? "" : " (the baseline)")
        .append(", not passed on patched after the reruns.\n");
    Files.writeString(out.resolve("summary.md"), md.toString());

    StringBuilder cmp = new StringBuilder();
    cmp.append("Regressions (").append(regressions.size()).append("):\n");
    for (String r : regressions) cmp.append("  ").append(r).append('\n');
    cmp.append("Other differences and notes (").append(notes.size()).append("):\n");
    for (String r : notes) cmp.append("  ").append(r).append('\n');
    Files.writeString(out.resolve("comparison.txt"), cmp.toString());

    if (opt.containsKey("--write-baseline")) writeBaseline(Paths.get(opt.get("--write-baseline")), stock, opt, modules);

    System.out.print(md);
    System.out.println();
    System.out.print(cmp);
    return regressions.isEmpty() ? 0 : 1;
  }

  static int[] counts(Map<String, Runs> t, String module) {
    int[] c = new int[5];
    for (Map.Entry<String, Runs> e : t.entrySet()) {
      if (!module(e.getKey()).equals(module)) continue;
      St s = e.getValue().first();
      if (s == null) continue;
      c[0]++;
      c[1 + s.ordinal()]++;
    }
    return c;
  }

  static String cells(int[] c) {
    return c[0] + " / " + c[1] + " / " + c[2] + " / " + c[3] + " / " + c[4];
  }

  static String runsText(Runs r) {
    if (r == null) return "none";
    return r.runs.stream().map(s -> s == null ? "-" : s.name().toLowerCase()).collect(Collectors.joining(", "));
  }

  static String runsJson(Runs r) {
    return "{\"status\": " + q(r.fin().name().toLowerCase()) + ", \"runs\": ["
        + r.runs.stream().map(s -> s == null ? "null" : q(s.name().toLowerCase())).collect(Collectors.joining(", "))
        + "]}";
  }

  /** The baseline: per-test first-run status, and the flaky list (failed at least once, passed at least once). */
  static void writeBaseline(Path file, Map<String, Runs> stock, Map<String, String> opt, List<String> modules)
      throws IOException {
    StringBuilder b = new StringBuilder();
    b.append("{\n");
    kv(b, "what", "RocketMQ 4.9.0's own tests on the stock Maven Central 4.9.0 jars (scripts/upstream-tests.sh): "
        + "each test's status in the whole run; tests that failed there were rerun alone, and those that passed on "
        + "a rerun are in flaky with how often they failed").append(",\n");
    kv(b, "command", opt.get("--command")).append(",\n");
    kv(b, "started", opt.get("--started")).append(",\n");
    kv(b, "finished", Instant.now().toString()).append(",\n");
    kv(b, "testJdk", opt.get("--jdk")).append(",\n");
    b.append("  \"modules\": {\n");
    boolean first = true;
    for (String m : modules) {
      int[] c = counts(stock, m);
      if (!first) b.append(",\n");
      first = false;
      b.append("    ").append(q(m)).append(": {\"tests\": ").append(c[0]).append(", \"passed\": ").append(c[1])
          .append(", \"failed\": ").append(c[2]).append(", \"errors\": ").append(c[3]).append(", \"skipped\": ")
          .append(c[4]).append("}");
    }
    b.append("\n  },\n  \"flaky\": {");
    first = true;
    for (Map.Entry<String, Runs> e : stock.entrySet()) {
      Runs r = e.getValue();
      if (r.failedCount() == 0 || !r.everPassed()) continue;
      b.append(first ? "\n" : ",\n");
      first = false;
      b.append("    ").append(q(e.getKey())).append(": {\"runs\": ").append(r.runCount()).append(", \"failed\": ")
          .append(r.failedCount()).append("}");
    }
    b.append(first ? "},\n" : "\n  },\n");
    b.append("  \"tests\": {\n");
    first = true;
    for (Map.Entry<String, Runs> e : stock.entrySet()) {
      Runs r = e.getValue();
      String st = r.first() == St.PASSED ? "passed"
          : r.everPassed() ? "flaky" : r.first().name().toLowerCase();
      if (!first) b.append(",\n");
      first = false;
      b.append("    ").append(q(e.getKey())).append(": ").append(q(st));
    }
    b.append("\n  }\n}\n");
    if (file.getParent() != null) Files.createDirectories(file.getParent());
    Files.writeString(file, b.toString());
    System.err.println("UpstreamReport: baseline written to " + file);
  }

  // ---- baseline reading: a small JSON reader ------------------------------------------------------------------------

  @SuppressWarnings("unchecked")
  static Map<String, Object> baseline(String file) throws IOException {
    Object o = new Json(Files.readString(Paths.get(file), StandardCharsets.UTF_8)).value();
    if (!(o instanceof Map)) die(file + " is not a JSON object");
    return (Map<String, Object>) o;
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> baselineTests(String file) throws IOException {
    Map<String, String> r = new TreeMap<>();
    Object t = baseline(file).get("tests");
    if (!(t instanceof Map)) die(file + " has no \"tests\" object");
    for (Map.Entry<String, Object> e : ((Map<String, Object>) t).entrySet()) r.put(e.getKey(), String.valueOf(e.getValue()));
    return r;
  }

  @SuppressWarnings("unchecked")
  static Map<String, String> baselineFlaky(String file) throws IOException {
    Map<String, String> r = new TreeMap<>();
    Object t = baseline(file).get("flaky");
    if (t instanceof Map) for (String k : ((Map<String, Object>) t).keySet()) r.put(k, "flaky");
    return r;
  }

  static final class Json {
    final String s;
    int i;

    Json(String s) { this.s = s; }

    Object value() {
      ws();
      if (i >= s.length()) throw new IllegalArgumentException("unexpected end of JSON");
      char c = s.charAt(i);
      if (c == '{') {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (s.charAt(i) == '}') { i++; return m; }
        while (true) {
          ws();
          String k = str();
          ws();
          expect(':');
          m.put(k, value());
          ws();
          if (s.charAt(i) == ',') { i++; continue; }
          expect('}');
          return m;
        }
      }
      if (c == '[') {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (s.charAt(i) == ']') { i++; return l; }
        while (true) {
          l.add(value());
          ws();
          if (s.charAt(i) == ',') { i++; continue; }
          expect(']');
          return l;
        }
      }
      if (c == '"') return str();
      int j = i;
      while (i < s.length() && "{}[],: \n\r\t".indexOf(s.charAt(i)) < 0) i++;
      String tok = s.substring(j, i);
      switch (tok) {
        case "true": return Boolean.TRUE;
        case "false": return Boolean.FALSE;
        case "null": return null;
        default: return Double.parseDouble(tok);
      }
    }

    String str() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') return b.toString();
        if (c == '\\') {
          char e = s.charAt(i++);
          switch (e) {
            case 'n': b.append('\n'); break;
            case 't': b.append('\t'); break;
            case 'r': b.append('\r'); break;
            case 'b': b.append('\b'); break;
            case 'f': b.append('\f'); break;
            case 'u': b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; break;
            default: b.append(e);
          }
        } else {
          b.append(c);
        }
      }
    }

    void ws() { while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++; }

    void expect(char c) {
      if (i >= s.length() || s.charAt(i) != c) throw new IllegalArgumentException("expected '" + c + "' at " + i);
      i++;
    }
  }

  // ---- JSON writing ----------------------------------------------------------------------------------------------------

  static StringBuilder kv(StringBuilder b, String k, String v) {
    return b.append("  ").append(q(k)).append(": ").append(q(v == null ? "" : v));
  }

  static StringBuilder kv0(StringBuilder b, String k, String v) {
    return b.append(q(k)).append(": ").append(q(v));
  }

  static String strList(List<String> l) {
    if (l.isEmpty()) return "[]";
    return "[\n" + l.stream().map(x -> "    " + q(x)).collect(Collectors.joining(",\n")) + "\n  ]";
  }

  static String q(String s) {
    StringWriter w = new StringWriter();
    w.write('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"': w.write("\\\""); break;
        case '\\': w.write("\\\\"); break;
        case '\n': w.write("\\n"); break;
        case '\r': w.write("\\r"); break;
        case '\t': w.write("\\t"); break;
        default:
          if (c < 0x20) w.write(String.format("\\u%04x", (int) c));
          else w.write(c);
      }
    }
    w.write('"');
    return w.toString();
  }
}
