package io.mdgate.app.config;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shipped files agree on where an installation keeps things: configurations in /etc/mdgate, never inside the
 * versioned /opt/mdgate-VERSION (left behind by an upgrade); the unit reads what mdgate-install writes.
 */
class InstalledPathsTest
{
    private static final Path ROOT = Path.of("..");
    private static final Pattern CONFIG_UNDER_OPT = Pattern.compile("/opt/mdgate[^\\s`'\"]*/conf/[^\\s`'\"]*\\.toml");
    private static final Pattern CONFIG_EXAMPLE = Pattern.compile("--config (/[^\\s`'\"]+\\.toml)");

    @Test
    void shouldNeverPointAtAConfigurationInsideTheInstallation() throws IOException
    {
        final List<String> wrong = new ArrayList<>();
        for (final Path file : shippedFiles())
        {
            final Matcher matcher = CONFIG_UNDER_OPT.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (matcher.find())
            {
                wrong.add(file + ": " + matcher.group());
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void shouldGiveEveryAbsoluteConfigurationExampleUnderEtcMdgate() throws IOException
    {
        final List<String> wrong = new ArrayList<>();
        int seen = 0;
        for (final Path file : shippedFiles())
        {
            final Matcher matcher = CONFIG_EXAMPLE.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (matcher.find())
            {
                seen++;
                if (!matcher.group(1).startsWith("/etc/mdgate/"))
                {
                    wrong.add(file + ": " + matcher.group());
                }
            }
        }
        assertTrue(seen >= 5, "only " + seen + " absolute --config examples found");
        assertEquals(List.of(), wrong);
    }

    @Test
    void shouldStartTheUnitFromTheConfigurationTheInstallerWrites() throws IOException
    {
        final String unit = read("deploy/systemd/mdgate@.service");
        final String installer = read("deploy/dist/mdgate-install");

        assertTrue(unit.contains("ExecStart=/opt/mdgate/bin/mdgate run --config /etc/mdgate/%i.toml"), unit);
        assertTrue(unit.contains("User=mdgate"), unit);
        assertTrue(unit.contains("StateDirectory=mdgate") && unit.contains("LogsDirectory=mdgate"), unit);
        assertTrue(installer.contains("\"$root/etc/mdgate/$name\""), installer);
        assertTrue(installer.contains("if [[ ! -e $root/etc/mdgate/$name ]]"), "the installer must not replace a " +
            "configuration already in /etc/mdgate");
        final String appliance = read("deploy/conf/appliance.toml");
        assertTrue(appliance.contains("\"/var/lib/mdgate/"), appliance);
        assertTrue(appliance.contains("\"/var/log/mdgate/"), appliance);
    }

    private static String read(final String relative) throws IOException
    {
        final Path file = ROOT.resolve(relative);
        assumeTrue(Files.isRegularFile(file), relative + " not found from " + Path.of("").toAbsolutePath());
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static boolean text(final Path file)
    {
        final String name = file.getFileName().toString();
        return !name.contains(".") || name.matches(".*\\.(md|toml|service|java|sh|txt)");
    }

    private static List<Path> shippedFiles() throws IOException
    {
        assumeTrue(Files.isDirectory(ROOT.resolve("deploy")), "deploy/ not found from " + Path.of("").toAbsolutePath());
        final List<Path> files = new ArrayList<>();
        for (final String dir : List.of("deploy/systemd", "deploy/conf", "deploy/dist", "docs", "gateway-app/src/main"))
        {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(dir)))
            {
                walk.filter(Files::isRegularFile).filter(InstalledPathsTest::text).forEach(files::add);
            }
        }
        files.add(ROOT.resolve("README.md"));
        files.add(ROOT.resolve("Makefile"));
        return files;
    }
}
