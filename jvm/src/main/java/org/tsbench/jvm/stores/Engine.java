package org.tsbench.jvm.stores;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * A JVM engine by name: how to open its store, and which library it runs.
 * Names match the Go registration's, engine/jvm/jvm.go.
 */
public record Engine(String name, String artifact, String versionKey, boolean ordered, Opener opener) {

    public interface Opener {
        Store open(Path dir, Settings s) throws Exception;
    }

    /** What a store is opened with: the job's shared options, and LmdbJava's buffer. */
    public record Settings(boolean sync, long cacheSize, long writeBufferSize, boolean compression,
            String buffer, long entries, int keySize, int valueSize) {
    }

    /** The engines' Maven versions, written from the pom at build time. */
    private static final Properties VERSIONS = load();

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Engine.class.getResourceAsStream("/versions.properties")) {
            p.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the worker jar lacks versions.properties: rebuild it", e);
        }
        return p;
    }

    public static final List<Engine> ALL = List.of(
            new Engine("lmdbjava", "org.lmdbjava:lmdbjava", "lmdbjava", true, LmdbJavaStore::open),
            new Engine("lmdbjni", "org.deephacks.lmdbjni:lmdbjni", "lmdbjni", true, LmdbJniStore::open),
            new Engine("lwjgl", "org.lwjgl:lwjgl-lmdb", "lwjgl", true, LwjglStore::open),
            new Engine("leveldbjni", "org.fusesource.leveldbjni:leveldbjni-all", "leveldbjni", true, LevelDbJniStore::open),
            new Engine("rocksdbjni", "org.rocksdb:rocksdbjni", "rocksdbjni", true, RocksDbJniStore::open),
            new Engine("mapdb", "org.mapdb:mapdb", "mapdb", true, MapDbStore::open),
            new Engine("mvstore", "com.h2database:h2", "h2", true, MvStoreStore::open),
            new Engine("xodus", "org.jetbrains.xodus:xodus-environment", "xodus", true, XodusStore::open),
            new Engine("chroniclemap", "net.openhft:chronicle-map", "chronicle", false, ChronicleMapStore::open));

    public static Engine byName(String name) {
        for (Engine e : ALL) {
            if (e.name.equals(name)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown JVM engine " + name);
    }

    /** The Maven version of the engine's artifact. */
    public String version() {
        return VERSIONS.getProperty(versionKey);
    }

    /** The Maven artifact and what native library it loaded, as the library reports it. */
    public String build() {
        String lib = switch (name) {
            case "lmdbjava" -> "LMDB " + LmdbJavaStore.nativeVersion() + ", bundled native library";
            case "lmdbjni" -> "LMDB " + LmdbJniStore.nativeVersion() + ", bundled native library (lmdbjni-linux64)";
            case "lwjgl" -> "LMDB " + LwjglStore.nativeVersion() + ", bundled native library (natives-linux)";
            case "leveldbjni" -> "LevelDB, bundled native library (leveldbjni-all, a 2013 build)";
            case "rocksdbjni" -> "RocksDB " + RocksDbJniStore.nativeVersion() + ", bundled native library";
            default -> "pure Java";
        };
        return "Maven " + artifact + " " + version() + ", " + lib;
    }
}
