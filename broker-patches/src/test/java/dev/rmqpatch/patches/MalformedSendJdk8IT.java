package dev.rmqpatch.patches;

import java.nio.file.Path;

/** {@link MalformedSendIT} with the patched name server and broker on JDK 8 (checked from /proc). */
class MalformedSendJdk8IT extends MalformedSendIT {

    @Override
    Path serverJdk() {
        return Jdk8.home();
    }
}
