package dev.proxypool.sdk.credentials;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.time.Ticker;
import java.io.IOException;
import java.io.StringReader;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Credentials from a Java properties file ({@code credentials.file}): {@code <ref>.username=...}
 * and {@code <ref>.password=...} for each ref, UTF-8. Rotation needs no restart: the file is
 * re-read when its content changes.
 *
 * <p>Change detection, cheapest first: at most once per check interval (measured on the injected
 * {@link Ticker}), a {@code resolve} call looks at the file's modification time, size and file key
 * (inode: an atomic rename-into-place changes it); only when one of them moved is the file read
 * and its SHA-256 digest compared with the loaded one; only a new digest is parsed. One caller does
 * the check while the others keep answering from the loaded content, so {@code resolve} never
 * blocks on another thread's file I/O and costs a volatile read and a map lookup otherwise. A store
 * {@linkplain #checkOnlyInBackground checked in the background} leaves every check to its owner's task.
 *
 * <p>Failure handling keeps the last good content: a missing, unreadable, oversized or malformed
 * file (bad escapes, invalid UTF-8, a key that is not {@code <ref>.username|password}, an invalid
 * ref name, a ref without both keys) is reported through {@link #lastError()} and a warning log
 * naming the file and the problem (never a value), and every ref keeps resolving as before. A
 * store whose file never loaded resolves nothing: it fails closed. Thread-safe.
 */
public final class FileCredentialStore implements CredentialStore {

    /** How often, at most, the file is looked at by default. */
    public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(2);
    /** Larger files are refused: a credentials file is small. */
    public static final int MAX_FILE_BYTES = 1 << 20;

    private static final System.Logger LOG = System.getLogger(FileCredentialStore.class.getName());
    private static final String USERNAME = ".username";
    private static final String PASSWORD = ".password";

    private final Path file;
    private final Ticker ticker;
    private final long intervalNanos;
    private final ReentrantLock checking = new ReentrantLock();
    private volatile long nextCheck;
    /** The file is checked by a background task ({@link #checkOnlyInBackground}), never by {@link #resolve}. */
    private volatile boolean background;

    private volatile Loaded loaded = Loaded.NOTHING;
    private volatile long reloads;
    private final List<Consumer<Set<String>>> listeners = new CopyOnWriteArrayList<>();

    /**
     * Reads the file now (a failure is reported through {@link #lastError()}, not thrown: the
     * store then fails closed until the file becomes readable).
     *
     * @param file          the credentials file ({@code credentials.file})
     * @param ticker        the monotonic clock the checks are timed by
     * @param checkInterval how often a resolve may check the file for a change; zero checks on every resolve
     * @throws IllegalArgumentException for a negative interval
     */
    public FileCredentialStore(Path file, Ticker ticker, Duration checkInterval) {
        this.file = Objects.requireNonNull(file, "credentials.file");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        if (checkInterval == null || checkInterval.isNegative()) {
            throw new IllegalArgumentException(
                    "credentials check interval must be zero or positive, got " + checkInterval);
        }
        this.intervalNanos = checkInterval.toNanos();
        refresh();
    }

    /**
     * The file at {@code file}, checked at most every {@link #DEFAULT_CHECK_INTERVAL}.
     *
     * @param file the credentials file
     * @return the store
     */
    public static FileCredentialStore open(Path file) {
        return new FileCredentialStore(file, Ticker.system(), DEFAULT_CHECK_INTERVAL);
    }

    @Override
    public Credentials resolve(CredentialRef ref) throws CredentialsUnavailableException {
        CredentialStore.requirePresent(ref);
        long now = ticker.read();
        if (!background
                && now - nextCheck >= 0
                && checking.tryLock()) { // never waits: the others answer from the loaded content
            try {
                nextCheck = now + intervalNanos;
                check();
            } finally {
                checking.unlock();
            }
        }
        Loaded l = loaded;
        Credentials c = l.byRef.get(ref.name());
        if (c == null) {
            String why =
                    reloads == 0 ? "credentials file " + file + " has not loaded" : "not in credentials file " + file;
            throw new CredentialsUnavailableException(
                    ref, l.error == null ? why : why + " (last error: " + l.error + ")");
        }
        return c;
    }

    /**
     * From now on {@link #resolve} never looks at the file (no file system call on the caller's thread, an
     * event loop's for instance): the owner calls {@link #refresh} on a background task instead, at the
     * check interval.
     */
    public void checkOnlyInBackground() {
        background = true;
    }

    /**
     * Checks the file now, whatever the interval.
     *
     * @return true when new content was loaded
     */
    public boolean refresh() {
        checking.lock();
        try {
            nextCheck = ticker.read() + intervalNanos;
            return check();
        } finally {
            checking.unlock();
        }
    }

    /**
     * Calls {@code listener} after every load that changed credentials, with the names of the refs
     * whose username or password changed or that appeared (never a value): a proxy disabled because
     * its credentials were rejected may work again. Called on the thread that noticed the change
     * (a resolve or {@link #refresh()}), under the check's lock: keep it quick. A listener that
     * throws is logged and does not stop the others.
     *
     * @param listener told the changed ref names
     */
    public void onChange(Consumer<Set<String>> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * The problem with the file's current state, if it could not be (re)loaded; empty when in sync.
     *
     * @return the problem, or empty
     */
    public Optional<String> lastError() {
        return Optional.ofNullable(loaded.error);
    }

    /**
     * The refs currently loaded (names only).
     *
     * @return the ref names, sorted
     */
    public Set<String> refs() {
        return new TreeSet<>(loaded.byRef.keySet());
    }

    /**
     * Successful loads so far, the first included.
     *
     * @return the number of successful loads
     */
    public long reloads() {
        return reloads;
    }

    /**
     * The credentials file this store reads.
     *
     * @return the file
     */
    public Path file() {
        return file;
    }

    @Override
    public String toString() {
        return "FileCredentialStore[" + file + ", " + loaded.byRef.size() + " refs]";
    }

    /** Runs under {@link #checking}. */
    private boolean check() {
        Loaded current = loaded;
        Stamp stamp;
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            stamp = new Stamp(a.lastModifiedTime(), a.size(), a.fileKey());
        } catch (NoSuchFileException e) {
            return fail(current, null, null, "credentials file " + file + " does not exist");
        } catch (IOException e) {
            return fail(
                    current,
                    null,
                    null,
                    "credentials file " + file + " is unreadable: "
                            + e.getClass().getSimpleName());
        }
        if (stamp.equals(current.stamp)) {
            return false;
        }
        if (stamp.size > MAX_FILE_BYTES) {
            return fail(
                    current, stamp, null, "credentials file " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return fail(
                    current,
                    null,
                    null,
                    "credentials file " + file + " is unreadable: "
                            + e.getClass().getSimpleName());
        }
        byte[] digest = sha256(bytes);
        if (Arrays.equals(digest, current.digest)) {
            loaded = new Loaded(current.byRef, stamp, digest, current.error);
            return false;
        }
        Map<String, Credentials> parsed;
        try {
            parsed = parse(bytes);
        } catch (IllegalArgumentException e) {
            return fail(current, stamp, digest, "credentials file " + file + " is malformed: " + e.getMessage());
        }
        loaded = new Loaded(Map.copyOf(parsed), stamp, digest, null);
        reloads++;
        LOG.log(Level.INFO, "credentials file {0} loaded: {1} refs", file, parsed.size());
        Set<String> changed = new HashSet<>();
        parsed.forEach((ref, c) -> {
            if (!c.equals(current.byRef.get(ref))) {
                changed.add(ref);
            }
        });
        if (!changed.isEmpty()) {
            Set<String> refs = Set.copyOf(changed);
            for (Consumer<Set<String>> l : listeners) {
                try {
                    l.accept(refs);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "credentials change listener failed: " + e);
                }
            }
        }
        return true;
    }

    /** Keeps the content, records the error; the stamp and digest are kept so one bad version is reported once. */
    private boolean fail(Loaded current, Stamp stamp, byte[] digest, String error) {
        if (!error.equals(current.error)) {
            LOG.log(
                    Level.WARNING,
                    error
                            + (current.stamp == null
                                    ? "; no credentials loaded, every ref fails closed"
                                    : "; keeping the previous content"));
        }
        loaded = new Loaded(current.byRef, stamp, digest, error);
        return false;
    }

    /** Parses and validates the whole file; messages name keys, never values. */
    static Map<String, Credentials> parse(byte[] bytes) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not valid UTF-8");
        }
        Properties props = new Properties();
        try {
            props.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a properties file (" + e.getMessage() + ")");
        }
        Map<String, String> users = new HashMap<>();
        Map<String, String> passwords = new HashMap<>();
        for (String key : props.stringPropertyNames()) {
            String ref;
            Map<String, String> into;
            if (key.endsWith(USERNAME)) {
                ref = key.substring(0, key.length() - USERNAME.length());
                into = users;
            } else if (key.endsWith(PASSWORD)) {
                ref = key.substring(0, key.length() - PASSWORD.length());
                into = passwords;
            } else {
                throw new IllegalArgumentException("key '" + key + "' is not <ref>.username or <ref>.password");
            }
            if (!new CredentialRef(ref).isPresent()) {
                throw new IllegalArgumentException("key '" + key + "' has an empty ref");
            }
            into.put(ref, props.getProperty(key));
        }
        Map<String, Credentials> result = new HashMap<>();
        for (String ref : users.keySet()) {
            if (!passwords.containsKey(ref)) {
                throw new IllegalArgumentException("ref '" + ref + "' has a username but no password");
            }
            try {
                result.put(ref, new Credentials(users.get(ref), Secret.of(passwords.get(ref))));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("ref '" + ref + "': " + e.getMessage());
            }
        }
        for (String ref : passwords.keySet()) {
            if (!users.containsKey(ref)) {
                throw new IllegalArgumentException("ref '" + ref + "' has a password but no username");
            }
        }
        return result;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** What identifies one version of the file without reading it. */
    private record Stamp(FileTime mtime, long size, Object fileKey) {}

    private record Loaded(Map<String, Credentials> byRef, Stamp stamp, byte[] digest, String error) {
        static final Loaded NOTHING = new Loaded(Map.of(), null, null, null);
    }
}
