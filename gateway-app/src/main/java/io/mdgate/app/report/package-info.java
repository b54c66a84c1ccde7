/**
 * {@code mdgate report}: latency histogram logs ({@code .hlog}, HdrHistogram's interval log format, one per
 * pipeline stage) turned into a percentile table and a PNG plot of the percentile distributions.
 */
package io.mdgate.app.report;
