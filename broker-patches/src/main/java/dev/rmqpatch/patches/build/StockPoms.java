package dev.rmqpatch.patches.build;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Stock POMs read from a local Maven repository, with what Maven does to a dependency list before an application
 * sees it: properties and {@code ${project.*}} interpolated, inherited dependencies added, versions, scopes and
 * exclusions filled in from the parents' dependencyManagement. Only as much of Maven's model as RocketMQ's POMs use;
 * whatever is left unresolved fails with the POM and the dependency named, never guessed.
 */
final class StockPoms {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)}");

    private final File repo;

    StockPoms(File repo) {
        this.repo = repo;
    }

    /** One dependency as the effective POM has it. */
    static final class Dep {
        final String groupId;
        final String artifactId;
        final String version;
        final String type;
        final String classifier;
        /** "compile" when the POM says nothing. */
        final String scope;
        final boolean optional;
        /** {groupId, artifactId} pairs. */
        final List<String[]> exclusions;

        Dep(String groupId, String artifactId, String version, String type, String classifier, String scope,
            boolean optional, List<String[]> exclusions) {
            this.groupId = groupId;
            this.artifactId = artifactId;
            this.version = version;
            this.type = type;
            this.classifier = classifier;
            this.scope = scope;
            this.optional = optional;
            this.exclusions = exclusions;
        }

        String key() {
            return groupId + ":" + artifactId + ":" + (type == null ? "jar" : type) + (classifier == null ? "" : ":" + classifier);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(groupId + ":" + artifactId + ":" + version);
            if (type != null && !type.equals("jar")) {
                sb.append(":").append(type);
            }
            if (classifier != null) {
                sb.append(":").append(classifier);
            }
            if (!scope.equals("compile")) {
                sb.append(" (").append(scope).append(")");
            }
            if (optional) {
                sb.append(" optional");
            }
            for (String[] x : exclusions) {
                sb.append(" -").append(x[0]).append(":").append(x[1]);
            }
            return sb.toString();
        }
    }

    /** An effective POM: coordinates and every dependency (inherited ones included), in Maven's order. */
    static final class Pom {
        final String groupId;
        final String artifactId;
        final String version;
        final List<Dep> dependencies;

        Pom(String groupId, String artifactId, String version, List<Dep> dependencies) {
            this.groupId = groupId;
            this.artifactId = artifactId;
            this.version = version;
            this.dependencies = dependencies;
        }

        /** The dependencies an application that depends on this artifact receives: compile and runtime, not optional. */
        List<Dep> reachingConsumers() {
            List<Dep> out = new ArrayList<Dep>();
            for (Dep d : dependencies) {
                if ((d.scope.equals("compile") || d.scope.equals("runtime")) && !d.optional) {
                    out.add(d);
                }
            }
            return out;
        }
    }

    File pomFile(String groupId, String artifactId, String version) {
        return new File(new File(new File(repo, groupId.replace('.', File.separatorChar)), artifactId + File.separator
            + version), artifactId + "-" + version + ".pom");
    }

    /** The effective POM of groupId:artifactId:version from the repository (its parents from there too). */
    Pom read(String groupId, String artifactId, String version) throws IOException {
        List<Element> chain = new ArrayList<Element>();
        String g = groupId;
        String a = artifactId;
        String v = version;
        while (a != null) {
            File f = pomFile(g, a, v);
            if (!f.isFile()) {
                if (chain.isEmpty()) {
                    throw new IOException("no POM of " + g + ":" + a + ":" + v + " in " + repo + " (" + f + ")");
                }
                break; // a parent without dependency information for us (org.apache:apache is in the repository too)
            }
            Element project = parse(f).getDocumentElement();
            chain.add(project);
            Element parent = child(project, "parent");
            if (parent == null) {
                break;
            }
            g = text(parent, "groupId");
            a = text(parent, "artifactId");
            v = text(parent, "version");
        }
        Element self = chain.get(0);
        Element parentOfSelf = child(self, "parent");
        String selfGroup = text(self, "groupId") != null ? text(self, "groupId") : text(parentOfSelf, "groupId");
        String selfVersion = text(self, "version") != null ? text(self, "version") : text(parentOfSelf, "version");
        Map<String, String> props = new LinkedHashMap<String, String>();
        for (int i = chain.size() - 1; i >= 0; i--) {
            Element p = child(chain.get(i), "properties");
            if (p != null) {
                for (Element e : children(p)) {
                    props.put(e.getTagName(), e.getTextContent().trim());
                }
            }
        }
        props.put("project.groupId", selfGroup);
        props.put("project.artifactId", artifactId);
        props.put("project.version", selfVersion);
        props.put("pom.groupId", selfGroup);
        props.put("pom.version", selfVersion);
        String where = groupId + ":" + artifactId + ":" + version;
        Map<String, Dep> managed = new LinkedHashMap<String, Dep>();
        for (int i = chain.size() - 1; i >= 0; i--) {
            Element dm = child(chain.get(i), "dependencyManagement");
            for (Dep d : deps(dm == null ? null : child(dm, "dependencies"), props, where)) {
                managed.put(d.key(), d);
            }
        }
        // Inherited dependencies first (the parent's), then the POM's own, a later one with the same key replacing.
        Map<String, Dep> declared = new LinkedHashMap<String, Dep>();
        for (int i = chain.size() - 1; i >= 0; i--) {
            for (Dep d : deps(child(chain.get(i), "dependencies"), props, where)) {
                declared.remove(d.key());
                declared.put(d.key(), d);
            }
        }
        List<Dep> effective = new ArrayList<Dep>();
        for (Dep d : declared.values()) {
            Dep m = managed.get(d.key());
            String dv = d.version != null ? d.version : m == null ? null : m.version;
            if (dv == null) {
                throw new IOException(where + ": no version for " + d.groupId + ":" + d.artifactId
                    + " in the POM or its parents' dependencyManagement");
            }
            String scope = d.scope != null ? d.scope : m != null && m.scope != null ? m.scope : "compile";
            List<String[]> exclusions = !d.exclusions.isEmpty() || m == null ? d.exclusions : m.exclusions;
            effective.add(new Dep(d.groupId, d.artifactId, dv, d.type, d.classifier, scope, d.optional, exclusions));
        }
        return new Pom(selfGroup, artifactId, selfVersion, Collections.unmodifiableList(effective));
    }

    private static List<Dep> deps(Element dependencies, Map<String, String> props, String where) throws IOException {
        List<Dep> out = new ArrayList<Dep>();
        if (dependencies == null) {
            return out;
        }
        for (Element d : children(dependencies)) {
            if (!d.getTagName().equals("dependency")) {
                continue;
            }
            List<String[]> exclusions = new ArrayList<String[]>();
            Element ex = child(d, "exclusions");
            if (ex != null) {
                for (Element x : children(ex)) {
                    exclusions.add(new String[] {value(x, "groupId", props, where), value(x, "artifactId", props, where)});
                }
            }
            out.add(new Dep(value(d, "groupId", props, where), value(d, "artifactId", props, where),
                value(d, "version", props, where), value(d, "type", props, where), value(d, "classifier", props, where),
                value(d, "scope", props, where), "true".equals(value(d, "optional", props, where)),
                Collections.unmodifiableList(exclusions)));
        }
        return out;
    }

    private static String value(Element parent, String name, Map<String, String> props, String where) throws IOException {
        String raw = text(parent, name);
        if (raw == null) {
            return null;
        }
        String s = raw;
        for (int depth = 0; s.contains("${"); depth++) {
            if (depth == 10) {
                throw new IOException(where + ": <" + name + ">" + raw + "</" + name + "> does not resolve (a cycle?)");
            }
            StringBuffer sb = new StringBuffer();
            Matcher m = PLACEHOLDER.matcher(s);
            while (m.find()) {
                String v = props.get(m.group(1));
                if (v == null) {
                    throw new IOException(where + ": cannot resolve ${" + m.group(1) + "} in <" + name + ">" + raw + "</"
                        + name + ">");
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(v));
            }
            m.appendTail(sb);
            s = sb.toString();
        }
        return s;
    }

    private static Document parse(File f) throws IOException {
        try {
            DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
            dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            dbf.setExpandEntityReferences(false);
            DocumentBuilder db = dbf.newDocumentBuilder();
            return db.parse(f);
        } catch (ParserConfigurationException e) {
            throw new IOException(e);
        } catch (SAXException e) {
            throw new IOException(f + ": " + e.getMessage(), e);
        }
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Element e : children(parent)) {
            if (e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }

    private static List<Element> children(Element parent) {
        List<Element> out = new ArrayList<Element>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n.getNodeType() == Node.ELEMENT_NODE) {
                out.add((Element) n);
            }
        }
        return out;
    }
}
