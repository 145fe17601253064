package dev.rmqpatch.patches.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * StockPoms on a small repository written here: what Maven does to a dependency list (inherited dependencies,
 * versions, scopes and exclusions from the parent's dependencyManagement, properties and ${project.*}) and what
 * reaches an application (compile and runtime, not optional). The real 4.9.0 POMs are ClientDeliveryIT's.
 */
class StockPomsTest {

    @TempDir
    Path repo;

    private void pom(String g, String a, String v, String body) throws IOException {
        Path f = repo.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
        Files.createDirectories(f.getParent());
        Files.writeString(f, "<?xml version=\"1.0\"?>\n<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n"
            + "<modelVersion>4.0.0</modelVersion>\n" + body + "</project>\n");
    }

    private void parent() throws IOException {
        pom("org.example", "all", "1.0", """
            <groupId>org.example</groupId><artifactId>all</artifactId><version>1.0</version><packaging>pom</packaging>
            <properties><lib.version>2.5</lib.version><lib.v>${lib.version}</lib.v></properties>
            <dependencies>
              <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
              <dependency><groupId>org.example</groupId><artifactId>everywhere</artifactId><version>3</version></dependency>
            </dependencies>
            <dependencyManagement><dependencies>
              <dependency><groupId>${project.groupId}</groupId><artifactId>sibling</artifactId><version>${project.version}</version></dependency>
              <dependency><groupId>com.lib</groupId><artifactId>lib</artifactId><version>${lib.v}</version>
                <exclusions><exclusion><groupId>x</groupId><artifactId>y</artifactId></exclusion></exclusions></dependency>
              <dependency><groupId>com.lib</groupId><artifactId>rt</artifactId><version>7</version><scope>runtime</scope></dependency>
            </dependencies></dependencyManagement>
            """);
    }

    @Test
    void effectiveDependenciesAsMavenMakesThem() throws Exception {
        parent();
        pom("org.example", "child", "1.0", """
            <parent><groupId>org.example</groupId><artifactId>all</artifactId><version>1.0</version></parent>
            <artifactId>child</artifactId>
            <dependencies>
              <dependency><groupId>${project.groupId}</groupId><artifactId>sibling</artifactId>
                <exclusions><exclusion><groupId>io.netty</groupId><artifactId>netty-tcnative</artifactId></exclusion></exclusions></dependency>
              <dependency><groupId>com.lib</groupId><artifactId>lib</artifactId></dependency>
              <dependency><groupId>com.lib</groupId><artifactId>rt</artifactId></dependency>
              <dependency><groupId>com.lib</groupId><artifactId>opt</artifactId><version>1</version><optional>true</optional></dependency>
              <dependency><groupId>com.lib</groupId><artifactId>prov</artifactId><version>1</version><scope>provided</scope></dependency>
            </dependencies>
            """);
        StockPoms.Pom p = new StockPoms(repo.toFile()).read("org.example", "child", "1.0");
        assertEquals("org.example:child:1.0", p.groupId + ":" + p.artifactId + ":" + p.version);
        assertEquals(List.of("junit:junit:4.13.2 (test)", "org.example:everywhere:3",
            "org.example:sibling:1.0 -io.netty:netty-tcnative", "com.lib:lib:2.5 -x:y", "com.lib:rt:7 (runtime)",
            "com.lib:opt:1 optional", "com.lib:prov:1 (provided)"), p.dependencies.stream().map(Object::toString).toList());
        assertEquals(List.of("org.example:everywhere:3", "org.example:sibling:1.0 -io.netty:netty-tcnative",
            "com.lib:lib:2.5 -x:y", "com.lib:rt:7 (runtime)"), p.reachingConsumers().stream().map(Object::toString).toList());
    }

    @Test
    void whatCannotBeResolvedFailsNamingIt() throws Exception {
        parent();
        pom("org.example", "noversion", "1.0", """
            <parent><groupId>org.example</groupId><artifactId>all</artifactId><version>1.0</version></parent>
            <artifactId>noversion</artifactId>
            <dependencies><dependency><groupId>com.lib</groupId><artifactId>unmanaged</artifactId></dependency></dependencies>
            """);
        pom("org.example", "noprop", "1.0", """
            <parent><groupId>org.example</groupId><artifactId>all</artifactId><version>1.0</version></parent>
            <artifactId>noprop</artifactId>
            <dependencies><dependency><groupId>com.lib</groupId><artifactId>p</artifactId><version>${nope}</version></dependency></dependencies>
            """);
        StockPoms poms = new StockPoms(repo.toFile());
        IOException e = assertThrows(IOException.class, () -> poms.read("org.example", "noversion", "1.0"));
        assertTrue(e.getMessage().contains("no version for com.lib:unmanaged"), e.getMessage());
        e = assertThrows(IOException.class, () -> poms.read("org.example", "noprop", "1.0"));
        assertTrue(e.getMessage().contains("${nope}"), e.getMessage());
        e = assertThrows(IOException.class, () -> poms.read("org.example", "absent", "1.0"));
        assertTrue(e.getMessage().contains("no POM of org.example:absent:1.0"), e.getMessage());
    }
}
