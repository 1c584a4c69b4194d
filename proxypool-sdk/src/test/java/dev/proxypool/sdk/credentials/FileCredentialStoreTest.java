package dev.proxypool.sdk.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.testkit.Pace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FileCredentialStoreTest {

    private static final Duration INTERVAL = Duration.ofSeconds(2);
    private static final CredentialRef VENDOR_A = new CredentialRef("vendor-a");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    private Path write(String content) throws Exception {
        Path f = dir.resolve("credentials.properties");
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private static String creds(String ref, String user, String pass) {
        return ref + ".username=" + user + "\n" + ref + ".password=" + pass + "\n";
    }

    @Test
    void loadsRefsAtStart() throws Exception {
        Path f = write("# comment\n" + creds("vendor-a", "alice", "pw-1") + creds("lab.squid_1", "bob", ""));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        assertEquals(Credentials.of("alice", "pw-1"), store.resolve(VENDOR_A));
        assertEquals(Credentials.of("bob", ""), store.resolve(new CredentialRef("lab.squid_1")));
        assertEquals(Set.of("vendor-a", "lab.squid_1"), store.refs());
        assertTrue(store.lastError().isEmpty());
        assertEquals(1, store.reloads());
    }

    @Test
    void missingRefFailsClosedNamingTheRefOnly() throws Exception {
        FileCredentialStore store = new FileCredentialStore(write(creds("vendor-a", "alice", "pw-1")), clock, INTERVAL);
        CredentialsUnavailableException e =
                assertThrows(CredentialsUnavailableException.class, () -> store.resolve(new CredentialRef("vendor-b")));
        assertTrue(e.getMessage().contains("'vendor-b'"), e.getMessage());
        assertFalse(e.getMessage().contains("pw-1"));
        assertFalse(e.getMessage().contains("alice"));
    }

    @Test
    void checkedOnlyInBackgroundAResolveNeverLooksAtTheFileAndARefreshPicksTheChangeUp() throws Exception {
        Path f = write(creds("vendor-a", "alice", "old"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        store.checkOnlyInBackground();
        write(creds("vendor-a", "alice", "rotated-password"));
        clock.advance(INTERVAL.multipliedBy(10));
        assertEquals("old", store.resolve(VENDOR_A).password().reveal(), "a resolve does not touch the file");
        assertEquals(1, store.reloads());
        assertTrue(store.refresh(), "the background task's check loads it");
        assertEquals("rotated-password", store.resolve(VENDOR_A).password().reveal());
    }

    @Test
    void rotationIsPickedUpAfterTheCheckIntervalWithoutRestart() throws Exception {
        Path f = write(creds("vendor-a", "alice", "old"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        assertEquals("old", store.resolve(VENDOR_A).password().reveal());
        write(creds("vendor-a", "alice", "rotated-password"));
        clock.advance(Duration.ofSeconds(1));
        assertEquals("old", store.resolve(VENDOR_A).password().reveal(), "not looked at before the interval");
        clock.advance(Duration.ofSeconds(1));
        assertEquals("rotated-password", store.resolve(VENDOR_A).password().reveal());
        assertEquals(2, store.reloads());
    }

    @Test
    void sameSizeRewriteIsFoundByTheDigest() throws Exception {
        Path f = write(creds("vendor-a", "alice", "aaaa"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        FileTime before = Files.getLastModifiedTime(f);
        write(creds("vendor-a", "alice", "bbbb"));
        Files.setLastModifiedTime(f, FileTime.fromMillis(before.toMillis() + 1000));
        clock.advance(INTERVAL);
        assertEquals("bbbb", store.resolve(VENDOR_A).password().reveal());
    }

    @Test
    void touchWithoutContentChangeDoesNotReload() throws Exception {
        Path f = write(creds("vendor-a", "alice", "pw"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        Files.setLastModifiedTime(
                f, FileTime.fromMillis(Files.getLastModifiedTime(f).toMillis() + 5000));
        clock.advance(INTERVAL);
        store.resolve(VENDOR_A);
        assertEquals(1, store.reloads());
        assertFalse(store.refresh());
    }

    @Test
    void atomicRenameIntoPlaceIsPickedUp() throws Exception {
        Path f = write(creds("vendor-a", "alice", "old1"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        Path tmp = dir.resolve("credentials.tmp");
        Files.writeString(tmp, creds("vendor-a", "alice", "new1"));
        Files.setLastModifiedTime(tmp, Files.getLastModifiedTime(f));
        Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        clock.advance(INTERVAL);
        assertEquals("new1", store.resolve(VENDOR_A).password().reveal(), "same size and mtime, new inode");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not a ref key      | vendor-a.user=alice                                   | 'vendor-a.user'",
                "username only      | vendor-a.username=alice                               | password",
                "password only      | vendor-a.password=secret-value                        | username",
                "bad unicode escape | vendor-a.username=\\u12x4                             | properties",
                "bad ref name       | bad\\ ref.username=u\\nbad\\ ref.password=secret-value | 'bad ref'",
                "colon in username  | vendor-a.username=al:ice\\nvendor-a.password=secret-value | ':'",
                "empty ref          | .username=u\\n.password=secret-value                  | empty ref"
            })
    void malformedRewriteKeepsThePreviousContentAndReportsIt(String name, String content, String expected)
            throws Exception {
        Path f = write(creds("vendor-a", "alice", "good-pw"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        write(content.replace("\\n", "\n"));
        clock.advance(INTERVAL);
        assertEquals("good-pw", store.resolve(VENDOR_A).password().reveal());
        String error = store.lastError().orElseThrow();
        assertTrue(error.contains(expected), error);
        assertTrue(error.contains(f.toString()), error);
        assertFalse(error.contains("secret-value"), error);
        assertFalse(error.contains("good-pw"), error);
        write(creds("vendor-a", "alice", "fixed-pw"));
        clock.advance(INTERVAL);
        assertEquals("fixed-pw", store.resolve(VENDOR_A).password().reveal());
        assertTrue(store.lastError().isEmpty());
    }

    @Test
    void invalidUtf8IsMalformed() throws Exception {
        Path f = write(creds("vendor-a", "alice", "good-pw"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        Files.write(f, new byte[] {'a', '.', 'u', 's', 'e', 'r', 'n', 'a', 'm', 'e', '=', (byte) 0xC3, (byte) 0x28});
        assertFalse(store.refresh());
        assertTrue(store.lastError().orElseThrow().contains("UTF-8"));
        assertEquals("good-pw", store.resolve(VENDOR_A).password().reveal());
    }

    @Test
    void missingFileAtStartFailsClosedUntilItAppears() throws Exception {
        Path f = dir.resolve("later.properties");
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        assertTrue(store.lastError().orElseThrow().contains("does not exist"));
        CredentialsUnavailableException e =
                assertThrows(CredentialsUnavailableException.class, () -> store.resolve(VENDOR_A));
        assertTrue(e.getMessage().contains("has not loaded"), e.getMessage());
        Files.writeString(f, creds("vendor-a", "alice", "pw"));
        clock.advance(INTERVAL);
        assertEquals("alice", store.resolve(VENDOR_A).username());
    }

    @Test
    void deletedFileKeepsTheLoadedContent() throws Exception {
        Path f = write(creds("vendor-a", "alice", "pw"));
        FileCredentialStore store = new FileCredentialStore(f, clock, INTERVAL);
        Files.delete(f);
        clock.advance(INTERVAL);
        assertEquals("pw", store.resolve(VENDOR_A).password().reveal());
        assertTrue(store.lastError().orElseThrow().contains("does not exist"));
    }

    @Test
    void badIntervalIsRejectedWithItsName() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new FileCredentialStore(dir.resolve("x"), clock, Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("interval"));
    }

    @Test
    void concurrentResolvesDuringRotationSeeWholeOldOrWholeNewCredentials() throws Exception {
        Path f = write(creds("vendor-a", "user-0", "pass-0"));
        FileCredentialStore store = new FileCredentialStore(f, clock, Duration.ZERO);
        AtomicBoolean stop = new AtomicBoolean();
        List<Future<Integer>> readers = new ArrayList<>();
        // platform threads: the readers spin, and spinning virtual threads would starve each other
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int t = 0; t < 8; t++) {
                readers.add(pool.submit(() -> {
                    int n = 0;
                    do {
                        Credentials c = store.resolve(VENDOR_A);
                        String version = c.username().substring(5);
                        if (!c.password().reveal().equals("pass-" + version)) {
                            throw new AssertionError("mixed credentials: user " + version);
                        }
                        n++;
                    } while (!stop.get());
                    return n;
                }));
            }
            for (int v = 1; v <= 50; v++) {
                Path tmp = dir.resolve("next.tmp");
                Files.writeString(tmp, creds("vendor-a", "user-" + v, "pass-" + v));
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                Pace.sleepMillis(2); // let the readers interleave with each replacement
            }
            stop.set(true);
            for (Future<Integer> r : readers) {
                assertTrue(r.get() > 0);
            }
        }
        assertEquals("user-50", store.resolve(VENDOR_A).username());
        assertTrue(store.lastError().isEmpty());
    }
}
