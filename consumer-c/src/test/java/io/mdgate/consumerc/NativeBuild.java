package io.mdgate.consumerc;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the Maven build put the C library and its tools: {@code target/native} (system property
 * {@code mdgate.consumer.native}, set by surefire), and its AddressSanitizer + UBSan twin under {@code sanitize/}.
 */
enum NativeBuild
{
    RELEASE(""),
    SANITIZE("sanitize");

    private final String subdirectory;

    NativeBuild(final String subdirectory)
    {
        this.subdirectory = subdirectory;
    }

    static Path nativeRoot()
    {
        final String root = System.getProperty("mdgate.consumer.native");
        if (null == root)
        {
            throw new IllegalStateException("system property mdgate.consumer.native is not set: run the tests " +
                "through Maven (consumer-c/pom.xml sets it to target/native)");
        }
        return Path.of(root);
    }

    Path root()
    {
        return subdirectory.isEmpty() ? nativeRoot() : nativeRoot().resolve(subdirectory);
    }

    Path tool(final String name)
    {
        final Path tool = root().resolve("bin").resolve(name);
        if (!Files.isExecutable(tool))
        {
            throw new IllegalStateException(tool + " was not built: the compile phase runs src/main/c/Makefile");
        }
        return tool;
    }

    /** @return the public headers as installed by the build. */
    static Path include()
    {
        return nativeRoot().resolve("include");
    }

    boolean sanitized()
    {
        return this == SANITIZE;
    }
}
