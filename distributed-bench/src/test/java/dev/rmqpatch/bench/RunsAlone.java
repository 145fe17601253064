package dev.rmqpatch.bench;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that runs with no other test class at the same time: the pom's {@code tests-alone} (surefire) and
 * {@code its-alone} (failsafe) executions, after the others and after RocketMQ's own suite, which may run beside this
 * module's other tests in {@code mvn verify} (the pom's {@code wait-for-upstream-suite}). For the tests whose figures
 * other load on the machine changes (CPU per message, held rates, outside-load warnings: the compare runs and the
 * in-process efficiency windows); a class without it must not depend on the machine being quiet.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("alone")
public @interface RunsAlone {
}
