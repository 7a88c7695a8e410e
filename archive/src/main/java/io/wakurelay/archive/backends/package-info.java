/** {@link io.wakurelay.archive.backends.ArchiveBackends}: opens the backend an {@link io.wakurelay.archive.ArchiveConfig} names. */
package io.wakurelay.archive.backends;
