// SPDX-License-Identifier: Apache-2.0
package io.jccl.bootstrap;

import io.jccl.Config;
import io.jccl.JcclException;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The identity of one communicator's bootstrap, as NCCL's {@code ncclUniqueId}: where its root
 * listens and a random 256-bit secret that ranks and root prove to each other (never sent). One
 * rank makes it with {@link #create()}, which also starts the root in that process (see
 * {@link BootstrapRoot}); the others get it as a string ({@link #encode()}, e.g. in
 * {@code JCCL_COMM_ID}) or as {@value #BYTES} bytes ({@link #toBytes()}, the size of an
 * {@code ncclUniqueId}, for an MPI broadcast or a key-value store).
 *
 * <pre>{@code
 * // rank 0
 * CommId id = CommId.create();
 * String text = id.encode();   // "10.0.0.1:41235#kT3v...": hand it to the other ranks
 * // every rank
 * Bootstrap b = Bootstrap.init(CommId.parse(text), nranks, rank, Config.fromEnvironment(), Set.of());
 * }</pre>
 *
 * <p>The text form is {@code HOST:PORT#SECRET}: HOST an IPv4 literal, a {@code [bracketed]} IPv6
 * literal or a host name; SECRET 43 characters of unpadded base64url. {@link #toString()} leaves the
 * secret out, so ids can be logged.
 */
public final class CommId {
    /** Bytes of {@link #toBytes()}, as {@code NCCL_UNIQUE_ID_BYTES}. */
    public static final int BYTES = 128;
    /** Bytes of the secret. */
    public static final int SECRET_BYTES = 32;
    /**
     * PBKDF2 rounds that stretch a passphrase: each rank pays them once at start (about 0.15 s on a
     * cold JVM); OWASP asks 600,000 of a password store, which would cost every rank near a second.
     */
    static final int PASSPHRASE_ROUNDS = 100_000;
    /** Longest host name the byte form holds. */
    public static final int MAX_HOST_NAME = 80;

    private static final int MAGIC = 0x4A434944; // "JCID"
    private static final int VERSION = 1;
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?");
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String host;
    private final int port;
    private final byte[] secret;

    private CommId(String host, int port, byte[] secret) {
        this.host = host;
        this.port = port;
        this.secret = secret;
    }

    /**
     * A new id whose root listens in this process on the interface {@code JCCL_SOCKET_IFNAME}
     * selects, on a free port, until the ranks have joined (or its bootstrap timeout passes).
     */
    public static CommId create() {
        return create(Config.fromEnvironment());
    }

    /** {@link #create()} with these settings (interface, family, bootstrap timeout). */
    public static CommId create(Config config) {
        return BootstrapRoot.start(config).id();
    }

    /** An id for a root at {@code host:port} with this secret; see the class comment for the rules. */
    public static CommId of(String host, int port, byte[] secret) {
        return of(host, port, secret, "id");
    }

    static CommId of(String host, int port, byte[] secret, String argument) {
        Objects.requireNonNull(secret, "secret");
        if (secret.length != SECRET_BYTES) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                    "has a secret of " + secret.length + " bytes, not " + SECRET_BYTES);
        }
        if (port < 1 || port > 65535) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument, "has port " + port + ", not 1..65535");
        }
        return new CommId(checkHost(host, argument), port, secret.clone());
    }

    /** A random secret for a new id. */
    static byte[] newSecret() {
        byte[] s = new byte[SECRET_BYTES];
        RANDOM.nextBytes(s);
        return s;
    }

    /**
     * An id whose secret anyone can derive from the address: for {@code JCCL_BOOTSTRAP_INSECURE=1}
     * on networks where every host that can reach the port is trusted.
     */
    static CommId insecure(String host, int port, String argument) {
        return of(host, port, derive("jccl/1 insecure " + host + ":" + port), argument);
    }

    /**
     * The secret of a shared passphrase (JCCL_COMM_SECRET) for the root at {@code host:port}:
     * PBKDF2-HMAC-SHA256 with the address in the salt and {@value #PASSPHRASE_ROUNDS} rounds, so
     * that a weak passphrase costs whoever records a handshake that much per guess.
     */
    static byte[] stretch(String passphrase, String host, int port) {
        try {
            javax.crypto.SecretKeyFactory f = javax.crypto.SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
            byte[] salt = ("jccl/1 passphrase " + host + ":" + port).getBytes(StandardCharsets.UTF_8);
            return f.generateSecret(new javax.crypto.spec.PBEKeySpec(passphrase.toCharArray(), salt, PASSPHRASE_ROUNDS,
                    SECRET_BYTES * 8)).getEncoded();
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
        }
    }

    /**
     * This id bound to job {@code job} (the launcher's job id, or JCCL_JOB_ID): the same address, the
     * secret HMAC-SHA256(secret, "jccl/1 job " + job). Every rank of one job computes the same;
     * a rank of another job that shares the address and the secret proves a different one, and the
     * root refuses it.
     */
    CommId boundTo(String job) {
        javax.crypto.Mac m = SecureChannel.hmac(secret);
        return new CommId(host, port, m.doFinal(("jccl/1 job " + job).getBytes(StandardCharsets.UTF_8)));
    }

    /** A secret from a fixed text (an insecure id's address, a rendezvous file's name). */
    static byte[] derive(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Parses {@link #encode()}'s form. */
    public static CommId parse(String text) {
        return parse(text, "id");
    }

    static CommId parse(String text, String argument) {
        if (text == null || text.isBlank()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument, "is empty; expected HOST:PORT#SECRET");
        }
        String t = text.trim();
        int hash = t.lastIndexOf('#');
        if (hash < 0) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                    "'" + t + "' has no secret; expected HOST:PORT#SECRET (JCCL_BOOTSTRAP_INSECURE=1 allows HOST:PORT)");
        }
        HostPort hp = HostPort.parse(t.substring(0, hash), argument);
        String s = t.substring(hash + 1);
        byte[] secret;
        try {
            secret = Base64.getUrlDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                    "for " + hp + " has a secret that is not base64url (" + s.length() + " characters)");
        }
        if (secret.length != SECRET_BYTES) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                    "for " + hp + " has a secret of " + secret.length + " bytes, not " + SECRET_BYTES);
        }
        return of(hp.host(), hp.port(), secret, argument);
    }

    /** A host and a port as written in ids and in {@code MASTER_ADDR}-style settings. */
    record HostPort(String host, int port) {
        static HostPort parse(String text, String argument) {
            int colon = text.lastIndexOf(':');
            if (colon < 0) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, argument, "'" + text + "' has no :PORT");
            }
            String h = text.substring(0, colon);
            if (h.startsWith("[") && h.endsWith("]")) {
                h = h.substring(1, h.length() - 1);
            } else if (h.contains(":")) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                        "'" + text + "': write an IPv6 address in brackets, as [::1]:29500");
            }
            int p;
            try {
                p = Integer.parseInt(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                        "'" + text + "' has port '" + text.substring(colon + 1) + "', not a number");
            }
            if (p < 1 || p > 65535) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, argument, "'" + text + "' has port " + p + ", not 1..65535");
            }
            return new HostPort(checkHost(h, argument), p);
        }

        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private static String checkHost(String host, String argument) {
        if (host == null || host.isEmpty()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument, "has an empty host");
        }
        InetAddress a = literal(host);
        if (a != null) {
            return a.getHostAddress(); // one spelling per address, so equal ids compare equal
        }
        if (host.length() > MAX_HOST_NAME || !HOST_NAME.matcher(host).matches()) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, argument,
                    "has host '" + host + "', neither an IP address nor a host name of at most " + MAX_HOST_NAME + " characters");
        }
        return host;
    }

    /** The address {@code host} spells literally, or null for a name (never a DNS lookup). */
    static InetAddress literal(String host) {
        try {
            return host.contains(":") ? Inet6Address.ofLiteral(host) : Inet4Address.ofLiteral(host);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Reads {@link #toBytes()}'s form. */
    public static CommId fromBytes(byte[] bytes) {
        String arg = "id";
        if (bytes == null || bytes.length != BYTES) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, arg,
                    "has " + (bytes == null ? "no" : bytes.length) + " bytes, not " + BYTES);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (b.getInt() != MAGIC) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, arg, "does not start with a jccl comm id's magic");
        }
        int version = b.get() & 0xff;
        if (version != VERSION) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, arg, "is of version " + version + ", not " + VERSION);
        }
        int kind = b.get() & 0xff;
        int port = b.getShort() & 0xffff;
        byte[] secret = new byte[SECRET_BYTES];
        b.get(secret);
        String host;
        try {
            host = switch (kind) {
                case 4, 6 -> {
                    byte[] a = new byte[kind == 4 ? 4 : 16];
                    b.get(a);
                    yield InetAddress.getByAddress(a).getHostAddress();
                }
                case 0 -> {
                    int len = b.get() & 0xff;
                    if (len > MAX_HOST_NAME) {
                        throw JcclException.invalidArgument(JcclException.NO_RANK, arg, "has a host name of " + len + " bytes");
                    }
                    byte[] n = new byte[len];
                    b.get(n);
                    yield new String(n, StandardCharsets.US_ASCII);
                }
                default -> throw JcclException.invalidArgument(JcclException.NO_RANK, arg, "has address kind " + kind);
            };
        } catch (java.net.UnknownHostException e) {
            throw JcclException.invalidArgument(JcclException.NO_RANK, arg, "has a bad address: " + e.getMessage());
        }
        while (b.hasRemaining()) {
            if (b.get() != 0) {
                throw JcclException.invalidArgument(JcclException.NO_RANK, arg, "has garbage after its fields");
            }
        }
        return of(host, port, secret, arg);
    }

    /** {@value #BYTES} bytes: magic, version, kind, port, secret, address, zero padding. */
    public byte[] toBytes() {
        ByteBuffer b = ByteBuffer.allocate(BYTES);
        b.putInt(MAGIC).put((byte) VERSION);
        InetAddress a = literal(host);
        byte[] name = host.getBytes(StandardCharsets.US_ASCII);
        b.put((byte) (a == null ? 0 : a instanceof Inet4Address ? 4 : 6)).putShort((short) port).put(secret);
        if (a != null) {
            b.put(a.getAddress());
        } else {
            b.put((byte) name.length).put(name);
        }
        return b.array();
    }

    /** {@code HOST:PORT#SECRET}; holds the secret: pass it only to the job's ranks. */
    public String encode() {
        return new HostPort(host, port) + "#" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    byte[] secret() {
        return secret.clone();
    }

    /** The host and port only: safe to log. */
    @Override
    public String toString() {
        return "CommId[" + new HostPort(host, port) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommId c && c.host.equals(host) && c.port == port && MessageDigest.isEqual(c.secret, secret);
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port, Arrays.hashCode(secret));
    }
}
