package io.mdgate.app;

import io.mdgate.core.capture.ItchFileFormat;
import io.mdgate.core.capture.UdpEndpoint;
import picocli.CommandLine;

/**
 * The picocli converters of the options every command that reads captures shares ({@code --format},
 * {@code --line-a}, {@code --line-b}, ...), so each value is spelled and refused the same way everywhere.
 */
public final class CaptureOptionConverters
{
    private CaptureOptionConverters()
    {
    }

    /** Converts {@code --format} values; {@code auto} is null (detect from the content). */
    public static final class FormatConverter implements CommandLine.ITypeConverter<ItchFileFormat>
    {
        @Override
        public ItchFileFormat convert(final String value)
        {
            switch (value)
            {
                case "auto":
                    return null;
                case "daily":
                    return ItchFileFormat.DAILY;
                case "zero-prefixed":
                    return ItchFileFormat.ZERO_PREFIXED;
                case "pcap":
                case "pcapng":
                    return ItchFileFormat.PCAP;
                default:
                    throw new CommandLine.TypeConversionException(
                        "'" + value + "' is not a format; expected auto, daily, zero-prefixed or pcap");
            }
        }
    }

    /** Converts {@code GROUP:PORT} / {@code ADDR:PORT} values. */
    public static final class EndpointConverter implements CommandLine.ITypeConverter<UdpEndpoint>
    {
        @Override
        public UdpEndpoint convert(final String value)
        {
            try
            {
                return UdpEndpoint.parse(value);
            }
            catch (final IllegalArgumentException ex)
            {
                throw new CommandLine.TypeConversionException(ex.getMessage());
            }
        }
    }
}
