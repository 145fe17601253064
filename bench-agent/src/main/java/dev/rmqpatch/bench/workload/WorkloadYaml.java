package dev.rmqpatch.bench.workload;

import dev.rmqpatch.bench.lang.Jdk8;
import java.io.StringReader;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Reads a workload file's text (YAML, or JSON, which YAML reads too, as OpenMessaging Benchmark's Jackson YAML reader
 * does) into its fields, in file order, each as the text of its value. SnakeYAML only composes the text into nodes: no
 * node is ever constructed into an object, a global tag is refused by SnakeYAML's tag inspector, and any tag other than
 * YAML's plain value types is refused here, so a workload file cannot instantiate a class. A workload is one flat mapping
 * of names to single values; anything else (a list, a nested mapping, a repeated field, a value-less field) is an error
 * that gives the line.
 */
final class WorkloadYaml {
    /** The tags a value may carry: YAML's own for strings, numbers, booleans and dates (the value is read as text). */
    private static final Set<Tag> VALUE_TAGS = Jdk8.setOf(Tag.STR, Tag.INT, Tag.FLOAT, Tag.BOOL, Tag.TIMESTAMP);
    /** Far above any workload file; bounds what a mistaken file can make the reader hold. */
    private static final int MAX_CODE_POINTS = 1024 * 1024;

    private WorkloadYaml() {
    }

    /** The fields of one workload, name to value text; an empty text gives no fields. */
    static Map<String, String> fields(String text) {
        Node root = compose(text);
        Map<String, String> fields = new LinkedHashMap<>();
        if (root == null) {
            return fields;
        }
        if (root instanceof MappingNode && !Tag.MAP.equals(root.getTag())) {
            throw new IllegalArgumentException(at(root) + refusedTag(root.getTag()));
        }
        if (!(root instanceof MappingNode)) {
            throw new IllegalArgumentException(at(root) + "a workload must be a mapping of 'field: value' lines (as OpenMessaging "
                + "Benchmark's workload files are), not " + describe(root));
        }
        for (NodeTuple t : ((MappingNode) root).getValue()) {
            Node keyNode = t.getKeyNode();
            if (!(keyNode instanceof ScalarNode) || !VALUE_TAGS.contains(keyNode.getTag())) {
                throw new IllegalArgumentException(at(keyNode) + "a field name must be plain text, not " + describe(keyNode));
            }
            String key = ((ScalarNode) keyNode).getValue();
            Node value = t.getValueNode();
            if (!(value instanceof ScalarNode)) {
                throw new IllegalArgumentException(at(value) + "field '" + key + "' must be a single value (a number, string or "
                    + "boolean), not " + describe(value) + "; nested YAML is not part of the workload format");
            }
            if (Tag.NULL.equals(value.getTag())) {
                throw new IllegalArgumentException(at(value) + "field '" + key + "' has no value; give one or leave the field out");
            }
            if (!VALUE_TAGS.contains(value.getTag())) {
                throw new IllegalArgumentException(at(value) + "field '" + key + "': " + refusedTag(value.getTag()));
            }
            if (fields.put(key, ((ScalarNode) value).getValue()) != null) {
                throw new IllegalArgumentException(at(keyNode) + "field '" + key + "' given twice");
            }
        }
        return fields;
    }

    private static Node compose(String text) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setAllowRecursiveKeys(false);
        options.setCodePointLimit(MAX_CODE_POINTS);
        // The default inspector already refuses every global tag; said here so that no later default changes it.
        options.setTagInspector(tag -> false);
        Yaml yaml = new Yaml(new SafeConstructor(options), new Representer(new DumperOptions()), new DumperOptions(), options);
        try {
            return yaml.compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            String problem = e.getProblem() == null ? e.getMessage() : e.getProblem();
            String where = e.getProblemMark() == null ? "" : "line " + (e.getProblemMark().getLine() + 1) + ": ";
            if (problem.startsWith("Global tag is not allowed: ")) {
                problem = refusedTag(new Tag(Jdk8.strip(problem.substring("Global tag is not allowed: ".length()))));
            } else if (e.getContext() != null) {
                problem = e.getContext() + ", " + problem;
            }
            throw new IllegalArgumentException(where + "not valid as a workload file: " + problem);
        } catch (YAMLException e) {
            throw new IllegalArgumentException("not valid as a workload file: " + e.getMessage());
        }
    }

    private static String refusedTag(Tag tag) {
        String name = tag.getValue().startsWith(Tag.PREFIX) ? "!!" + tag.getValue().substring(Tag.PREFIX.length()) : tag.getValue();
        return "the tag " + name + " is refused: a workload file holds plain values only, and a tag could make a YAML reader "
            + "create objects of a class";
    }

    private static String at(Node node) {
        return node.getStartMark() == null ? "" : "line " + (node.getStartMark().getLine() + 1) + ": ";
    }

    private static String describe(Node node) {
        switch (node.getNodeId()) {
            case sequence:
                return "a list";
            case mapping:
                return "a mapping";
            default:
                return Tag.NULL.equals(node.getTag()) ? "nothing" : "the value '" + ((ScalarNode) node).getValue() + "'";
        }
    }
}
