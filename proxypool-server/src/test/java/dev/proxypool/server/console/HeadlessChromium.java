package dev.proxypool.server.console;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through Debian's chromedriver, both named by path so Selenium
 * Manager never looks anything up or downloads anything. A missing browser or driver fails the test
 * with the package to install (never a skip). Each instance has a fresh profile directory.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path CHROMIUM = Path.of(System.getProperty("console.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("console.chromedriver", "/usr/bin/chromedriver"));
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, ChromeDriverService service, Path profile) {
        this.driver = driver;
        this.service = service;
        this.profile = profile;
    }

    static HeadlessChromium start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("the console's browser tests need Debian's headless Chromium and its driver: " + CHROMIUM
                    + (Files.isExecutable(CHROMIUM) ? " found" : " is missing") + ", " + CHROMEDRIVER
                    + (Files.isExecutable(CHROMEDRIVER) ? " found" : " is missing")
                    + " (apt-get install chromium chromium-driver; .ci/run does this)");
        }
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        Path profile;
        try {
            profile = Files.createTempDirectory("proxypool-console-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-quic",
                "--no-first-run",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1440,1000",
                "--user-data-dir=" + profile);
        // the browser's console log, read by jsErrors()
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .withTimeout(Duration.ofSeconds(60))
                .build();
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30)).scriptTimeout(Duration.ofSeconds(30));
            return new HeadlessChromium(driver, service, profile);
        } catch (RuntimeException e) {
            service.stop();
            deleteQuietly(profile);
            throw new AssertionError(
                    "headless Chromium (" + CHROMIUM + ") did not start through " + CHROMEDRIVER + ": " + e, e);
        }
    }

    /**
     * An explicit wait: polls until the condition holds, at most {@code seconds} (generous: a loaded 2-core box).
     * A row replaced by a re-render while the condition reads it is read again at the next poll.
     */
    WebDriverWait waiting(int seconds) {
        WebDriverWait w = new WebDriverWait(driver, Duration.ofSeconds(seconds), Duration.ofMillis(50));
        w.ignoring(org.openqa.selenium.StaleElementReferenceException.class);
        return w;
    }

    /**
     * The SEVERE entries of the browser's console log since the last call (JavaScript errors, uncaught
     * rejections), without the browser's own lines about an HTTP error answer ("Failed to load resource: the
     * server responded with a status of 4xx"), which a test provokes on purpose (a 401, a 403).
     */
    List<String> jsErrors() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                .map(LogEntry::getMessage)
                .filter(m -> !m.contains("the server responded with a status of 4"))
                .toList();
    }

    /** Saves what the browser shows to {@code target/console-screenshots/<name>.png}. */
    Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path to = SCREENSHOTS.resolve(name + ".png");
            Path shot = driver.getScreenshotAs(OutputType.FILE).toPath();
            Files.copy(shot, to, StandardCopyOption.REPLACE_EXISTING);
            Files.deleteIfExists(shot);
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException("saving the screenshot " + name + " failed", e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
            deleteQuietly(profile);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temp profile left behind is harmless
        }
    }
}
