package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The product modules' boundaries, read from what was compiled: the server and the CLI are named
 * modules, and no class of theirs refers to a package of another product module that is not
 * exported to it (to everyone, or by a qualified export naming it); the examples, an application
 * of the SDK, reach only the packages exported to everyone. The compiler already refuses
 * such a reference on the module path; this test keeps it so if a descriptor is deleted or a build
 * puts a module back on the class path, where nothing is enforced.
 */
class ModuleBoundariesTest {

    /** An application of the SDK: it may reach only what the SDK and the core export to everyone. */
    private static final String APPLICATION = "dev.proxypool.examples";

    /** A project type in a descriptor or signature: {@code Ldev/proxypool/sdk/Lease;}, {@code Ldev/proxypool/x/Y<}. */
    private static final Pattern DESCRIBED = Pattern.compile("L(dev/proxypool/[A-Za-z0-9_/$]+)[;<]");

    @Test
    void everyProductModuleIsNamedAndReachesOnlyWhatIsExportedToIt() throws Exception {
        Map<String, Path> roots = new LinkedHashMap<>();
        roots.put("dev.proxypool.core", codeSource(Proxy.class));
        roots.put("dev.proxypool.sdk", codeSource(ProxyPool.class));
        roots.put("dev.proxypool.server", codeSource(ProxyPoolServer.class));
        roots.put("dev.proxypool.cli", codeSource(Main.class));
        // the examples ship with the CLI (runtime scope), loaded by name as `proxypool example` does
        roots.put(APPLICATION, codeSource(Class.forName("dev.proxypool.examples.EmbeddedPoolExample")));
        Map<String, ModuleDescriptor> modules = new LinkedHashMap<>();
        roots.forEach((name, root) -> modules.put(name, descriptor(name, root)));

        List<String> violations = new ArrayList<>();
        int references = 0;
        for (String module : roots.keySet()) {
            for (Map.Entry<String, Set<String>> use :
                    referencedTypes(roots.get(module)).entrySet()) {
                for (String type : use.getValue()) {
                    references++;
                    String refusal = refusal(module, type, modules);
                    if (refusal != null) {
                        violations.add(use.getKey() + " -> " + refusal);
                    }
                }
            }
        }
        assertTrue(references > 1000, "the scan read the compiled classes: " + references + " references");
        assertEquals(List.of(), violations, "references to packages not exported to the referring module");
    }

    @Test
    void aReferenceToAPackageNotExportedToTheModuleIsReported() throws Exception {
        Map<String, ModuleDescriptor> modules = Map.of(
                "dev.proxypool.sdk", descriptor("dev.proxypool.sdk", codeSource(ProxyPool.class)),
                "dev.proxypool.core", descriptor("dev.proxypool.core", codeSource(Proxy.class)));
        // the SDK's Redis store is exported to the server and the CLI: an application may not reach it
        assertEquals(
                "dev.proxypool.sdk.redis.RedisPoolStore: package dev.proxypool.sdk.redis of dev.proxypool.sdk"
                        + " is not exported to dev.proxypool.examples",
                refusal("dev.proxypool.examples", "dev.proxypool.sdk.redis.RedisPoolStore", modules));
        assertEquals(
                "dev.proxypool.core.limits.RateLimiter: package dev.proxypool.core.limits of dev.proxypool.core"
                        + " is not exported to dev.proxypool.cli",
                refusal("dev.proxypool.cli", "dev.proxypool.core.limits.RateLimiter", modules));
        assertEquals(null, refusal("dev.proxypool.server", "dev.proxypool.sdk.redis.RedisPoolStore", modules));
        assertEquals(null, refusal("dev.proxypool.examples", "dev.proxypool.sdk.ProxyPool", modules));
        // and the scan of a compiled class finds such a reference
        byte[] probe = ClassFile.of()
                .build(
                        ClassDesc.of("dev.proxypool.cli.Probe"),
                        cls -> cls.withMethodBody(
                                "store", MethodTypeDesc.of(ClassDesc.ofDescriptor("V")), ClassFile.ACC_STATIC, code -> {
                                    code.new_(ClassDesc.of("dev.proxypool.sdk.redis.RedisPoolStore"));
                                    code.pop();
                                    code.return_();
                                }));
        assertTrue(
                typesOf(probe).contains("dev.proxypool.sdk.redis.RedisPoolStore"),
                typesOf(probe).toString());
    }

    /** Why {@code module} may not refer to {@code type}, or null when it may (or the type is not a product type). */
    private static String refusal(String module, String type, Map<String, ModuleDescriptor> modules) {
        int dot = type.lastIndexOf('.');
        if (dot < 0) {
            return null;
        }
        String pkg = type.substring(0, dot);
        for (ModuleDescriptor owner : modules.values()) {
            if (owner.name().equals(module) || !owner.packages().contains(pkg)) {
                continue;
            }
            boolean exported = owner.exports().stream()
                    .anyMatch(e -> e.source().equals(pkg)
                            && (!e.isQualified() || e.targets().contains(module)));
            return exported
                    ? null
                    : type + ": package " + pkg + " of " + owner.name() + " is not exported to " + module;
        }
        return null;
    }

    private static ModuleDescriptor descriptor(String name, Path root) {
        return ModuleFinder.of(root)
                .find(name)
                .orElseThrow(() -> new AssertionError(root + " holds no named module " + name
                        + " (a module-info.class): the module is on the class path, unchecked"))
                .descriptor();
    }

    private static Path codeSource(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Each compiled class under {@code root} (a directory or a jar) with the types it refers to. */
    private static Map<String, Set<String>> referencedTypes(Path root) throws IOException {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        if (Files.isDirectory(root)) {
            collect(root, out);
        } else {
            try (FileSystem jar = FileSystems.newFileSystem(root)) {
                collect(jar.getPath("/"), out);
            }
        }
        return out;
    }

    private static void collect(Path root, Map<String, Set<String>> out) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".class")
                            && !f.getFileName().toString().equals("module-info.class"))
                    .forEach(f -> {
                        try {
                            out.put(root.relativize(f).toString(), typesOf(Files.readAllBytes(f)));
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    });
        }
    }

    /**
     * The class names a class file's constant pool refers to: its class entries (arrays unwrapped)
     * and the project's types named in descriptors and generic signatures (a parameter, field or
     * return type the code never loads by a class entry).
     */
    private static Set<String> typesOf(byte[] classFile) {
        Set<String> types = new TreeSet<>();
        for (PoolEntry entry : ClassFile.of().parse(classFile).constantPool()) {
            if (entry instanceof Utf8Entry utf8) {
                Matcher m = DESCRIBED.matcher(utf8.stringValue());
                while (m.find()) {
                    types.add(m.group(1).replace('/', '.'));
                }
            } else if (entry instanceof ClassEntry c) {
                String name = c.asInternalName();
                int array = name.lastIndexOf('[');
                if (array >= 0) {
                    if (name.charAt(array + 1) != 'L') {
                        continue;
                    }
                    name = name.substring(array + 2, name.length() - 1);
                }
                types.add(name.replace('/', '.'));
            }
        }
        return types;
    }
}
