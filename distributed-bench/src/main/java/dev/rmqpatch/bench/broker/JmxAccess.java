package dev.rmqpatch.bench.broker;

import dev.rmqpatch.bench.auth.SecretFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import javax.management.remote.JMXConnector;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.rmi.ssl.SslRMIClientSocketFactory;

/**
 * How the coordinator logs in to the brokers' JMX: the read-only user and password deploy generated (a file in the
 * JDK's own password-file format, {@code USER PASSWORD}, owner-only), and, for {@code broker_jmx = tls}, the brokers'
 * certificate to trust. Neither is ever on a command line.
 */
public final class JmxAccess {
    private final String user;
    private final String password;
    private final boolean tls;

    private JmxAccess(String user, String password, boolean tls) {
        this.user = user;
        this.password = password;
        this.tls = tls;
    }

    /** No credentials, no TLS: for a JMX port someone else opened that way. */
    public static JmxAccess anonymous() {
        return new JmxAccess(null, null, false);
    }

    /**
     * @param passwordFile owner-only file whose first line that is not a comment is {@code USER PASSWORD}; null = none
     * @param tlsCert      PEM or DER certificate(s) of the brokers' JMX keystore to trust; null = no TLS. Installed as
     *                     this JVM's default TLS context, which is what the RMI stubs' SSL socket factories use.
     */
    public static JmxAccess of(Path passwordFile, Path tlsCert) throws IOException {
        String user = null;
        String password = null;
        if (passwordFile != null) {
            for (String line : SecretFiles.read(passwordFile, "JMX password file").split("\n")) {
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] parts = t.split("\\s+");
                if (parts.length != 2) {
                    throw new IOException("JMX password file " + passwordFile + ": expected one line 'USER PASSWORD'");
                }
                user = parts[0];
                password = parts[1];
                break;
            }
            if (user == null) {
                throw new IOException("JMX password file " + passwordFile + " has no 'USER PASSWORD' line");
            }
        }
        if (tlsCert != null) {
            trustOnly(tlsCert);
        }
        return new JmxAccess(user, password, tlsCert != null);
    }

    public boolean hasCredentials() {
        return user != null;
    }

    public boolean tls() {
        return tls;
    }

    /** The environment for {@code JMXConnectorFactory.connect}. */
    public Map<String, Object> environment() {
        Map<String, Object> env = new HashMap<>();
        if (user != null) {
            env.put(JMXConnector.CREDENTIALS, new String[] {user, password});
        }
        if (tls) {
            // The registry lookup itself goes over TLS (the broker sets jmxremote.registry.ssl), so the password
            // is never sent in clear; the connector's stub brings its own SSL factory.
            env.put("com.sun.jndi.rmi.factory.socket", new SslRMIClientSocketFactory());
        }
        return env;
    }

    private static void trustOnly(Path certFile) throws IOException {
        try (InputStream in = Files.newInputStream(certFile)) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new IOException("no certificate in " + certFile);
            }
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                trust.setCertificateEntry("broker-jmx-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            SSLContext.setDefault(context);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot use " + certFile + " as the brokers' JMX certificate: " + e.getMessage(), e);
        }
    }
}
