package io.mdgate.app;

import java.io.PrintWriter;
import java.io.UncheckedIOException;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception that escapes any mdgate command into one line on stderr, the command's name, what went wrong
 * and what to do, and an exit code by the rule of {@link ExitCodes}: a path the command line names that is
 * missing, of the wrong kind, not accessible or already there gives {@link ExitCodes#USAGE}; anything else
 * {@link ExitCodes#FAILED}. No Java stack trace reaches the operator. Stateless.
 */
final class ExecutionErrorHandler implements IExecutionExceptionHandler
{
    @Override
    public int handleExecutionException(final Exception ex, final CommandLine command, final ParseResult parsed)
    {
        final PrintWriter err = UsageErrorHandler.root(command).getErr();
        final Throwable cause = ex instanceof UncheckedIOException && null != ex.getCause() ? ex.getCause() : ex;
        final String pathProblem = FailureReasons.pathProblem(cause);
        final String reason = null != pathProblem ? pathProblem : FailureReasons.describe(cause);

        err.println(command.getColorScheme().errorText(command.getCommandSpec().qualifiedName() + ": " + reason));
        err.flush();

        return null != pathProblem ? ExitCodes.USAGE : ExitCodes.FAILED;
    }
}
