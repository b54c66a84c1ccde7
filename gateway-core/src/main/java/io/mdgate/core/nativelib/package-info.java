/**
 * Loading the project's JNI libraries ({@code libmdgate-dpdk}, {@code libmdgate-verbs}): from
 * {@code java.library.path}, else from the jar they are packaged in.
 */
package io.mdgate.core.nativelib;
