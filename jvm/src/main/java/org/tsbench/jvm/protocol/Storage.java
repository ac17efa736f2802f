package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A store's footprint after a write, next to the flat array of its
 * entries, under Go's micro.Storage names.
 *
 * @param disk measured after the engine closed
 * @param reopened measured right after it opened the store again
 */
public record Storage(
        @JsonProperty("disk") Disk disk,
        @JsonProperty("entries") long entries,
        @JsonProperty("flat_bytes") long flatBytes,
        @JsonProperty("overhead_pct") double overheadPct,
        @JsonProperty("bytes_per_entry") double bytesPerEntry,
        @JsonProperty("reopened") Disk reopened) {

    /** micro.NewStorage's figures of a store of entries of keySize+valueSize bytes occupying disk. */
    public static Storage of(Disk disk, Disk reopened, long entries, int keySize, int valueSize) {
        long used = disk.usedBytes();
        long flat = entries * (keySize + valueSize);
        return new Storage(disk, entries, flat, entries > 0 ? (double) (used - flat) / flat * 100 : 0.0,
                entries > 0 ? (double) used / entries : 0.0, reopened);
    }
}
