import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * AgentJvmIT's program, compiled by the test for Java 8 so that it runs on JDK 8 and 17 alike. It loads RocketMQ's
 * MessageDecoder (a P2 target) from the application class path, or with "--child JAR|DIR..." from a new URLClassLoader
 * over those jars (and every jar in those folders) whose parent is the application class loader (as Spring Boot's fat-jar loader is),
 * calls messageProperties2String (stock 4.9.0 ends every pair with \u0002, P2 does not end the last one) and says
 * which loader defined the codec class P2 calls, if any. Prints lines the test reads: PROPERTIES, CODEC.
 */
public final class AgentProbe {

    public static void main(String[] args) throws Exception {
        ClassLoader loader = AgentProbe.class.getClassLoader();
        if (args.length > 0 && args[0].equals("--child")) {
            List<URL> urls = new ArrayList<URL>();
            for (int i = 1; i < args.length; i++) {
                File arg = new File(args[i]);
                File[] files = arg.isDirectory() ? arg.listFiles() : new File[] {arg};
                for (File f : files) {
                    if (f.getName().endsWith(".jar")) {
                        urls.add(f.toURI().toURL());
                    }
                }
            }
            loader = new URLClassLoader(urls.toArray(new URL[0]), AgentProbe.class.getClassLoader());
        }
        Class<?> decoder = Class.forName("org.apache.rocketmq.common.message.MessageDecoder", true, loader);
        // P2's marker: the class that walks the map's entries (P2 gives stock's very string, so the string is no marker).
        final String[] by = new String[1];
        Map<String, String> props = new LinkedHashMap<String, String>() {
            @Override
            public Set<Map.Entry<String, String>> entrySet() {
                if (by[0] == null) {
                    by[0] = new Throwable().getStackTrace()[1].getClassName();
                }
                return super.entrySet();
            }
        };
        props.put("a", "1");
        props.put("b", "2");
        String s = (String) decoder.getMethod("messageProperties2String", Map.class).invoke(null, props);
        System.out.println("PROPERTIES " + s.replace('\u0001', '=').replace('\u0002', ';') + " BY " + by[0]);
        String codec;
        try {
            Class<?> c = Class.forName("dev.rmqpatch.codec.properties.MessageProperties", false, loader);
            codec = c.getClassLoader() == decoder.getClassLoader() ? "same-loader" : "other-loader " + c.getClassLoader();
        } catch (ClassNotFoundException e) {
            codec = "absent";
        }
        System.out.println("CODEC " + codec);
    }
}
