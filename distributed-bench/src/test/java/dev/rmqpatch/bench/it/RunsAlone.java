package dev.rmqpatch.bench.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * An IT that runs with no other test class at the same time: the pom's {@code its-alone} failsafe execution, after the
 * others, which run two at a time. For the runs that measure CPU and report other load on the machine (the compare
 * runs); a class without it must not depend on the machine being quiet.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("alone")
@interface RunsAlone {
}
