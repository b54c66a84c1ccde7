package io.mdgate.app;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a path option or parameter of a command that takes {@code -} for stdin (an input) or stdout (an output).
 * Every other path of every command refuses {@code -} before the command runs, see {@link StdioArguments}, so
 * {@code -} never silently becomes a file or directory named "-".
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface Stdio
{
}
