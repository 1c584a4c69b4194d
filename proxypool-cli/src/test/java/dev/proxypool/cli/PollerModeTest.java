package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The command's default socket polling mode: platform pollers unless the operator chose a mode. */
class PollerModeTest {

    private static final String KEY = "jdk.pollerMode";
    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(KEY);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(KEY);
        } else {
            System.setProperty(KEY, saved);
        }
    }

    @Test
    void platformPollersWhenTheOperatorSetNoMode() {
        System.clearProperty(KEY);
        Main.preferPlatformPollers();
        int feature = Runtime.version().feature();
        assertEquals(feature >= 21 && feature <= 25 ? "1" : null, System.getProperty(KEY));
    }

    @Test
    void anOperatorsChoiceIsKept() {
        System.setProperty(KEY, "2");
        Main.preferPlatformPollers();
        assertEquals("2", System.getProperty(KEY));
    }
}
