// MvStoreChunks shows how H2's MVStore lays out one large commit: it puts
// N entries of 4-byte int keys and 100-byte values in one store.commit()
// (as the worker's mvstore engine does with one batch) and prints, every
// tenth of the way, the file's size and how many chunks MVStore has
// written, then the chunks' fill rate after the commit.
//
// Run it after scripts/build-jvm.sh, from the repository's top:
//
//	java -cp 'build/jvm/lib/*' jvm/probe/MvStoreChunks.java random 1000000
//	java -cp 'build/jvm/lib/*' jvm/probe/MvStoreChunks.java seq 1000000
//
// A third argument sets MVStore's autoCommitBufferSize in KiB; the
// auto-commit memory it gives is printed first. The random order is
// java.util.Random(42)'s shuffle, not the worker's permutation.
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;

public class MvStoreChunks {
    public static void main(String[] args) throws Exception {
        if (args.length < 2 || !(args[0].equals("seq") || args[0].equals("random"))) {
            System.err.println("usage: MvStoreChunks seq|random ENTRIES [AUTO_COMMIT_BUFFER_KIB]");
            System.exit(2);
        }
        int n = Integer.parseInt(args[1]);
        Path dir = Files.createTempDirectory("mvstore-chunks");
        Path file = dir.resolve("mvstore");
        // The worker's settings: a 64 MiB cache, auto-commit disabled.
        MVStore.Builder b = new MVStore.Builder().fileName(file.toString()).cacheSize(64).autoCommitDisabled();
        if (args.length > 2) {
            b = b.autoCommitBufferSize(Integer.parseInt(args[2]));
        }
        MVStore store = b.open();
        MVMap<byte[], byte[]> map = store.openMap("data", new MVMap.Builder<byte[], byte[]>()
                .keyType(ByteArrayDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
        System.out.printf("auto-commit memory %,d B, auto-commit delay %d ms%n", store.getAutoCommitMemory(), store.getAutoCommitDelay());
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = i;
        }
        if (args[0].equals("random")) {
            Random r = new Random(42);
            for (int i = n - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = keys[i];
                keys[i] = keys[j];
                keys[j] = t;
            }
        }
        for (int i = 0; i < n; i++) {
            int k = keys[i];
            map.put(new byte[] {(byte) (k >>> 24), (byte) (k >>> 16), (byte) (k >>> 8), (byte) k}, new byte[100]);
            if ((i + 1) % Math.max(1, n / 10) == 0) {
                System.out.printf("%,10d puts: file %,d B, %d chunks written, %,d B unsaved%n", i + 1,
                        store.getFileStore().size(), chunks(store), store.getUnsavedMemory());
            }
        }
        store.commit();
        System.out.printf("committed: file %,d B, %d chunks, chunks fill %d%%%n", store.getFileStore().size(), chunks(store),
                store.getFileStore().getChunksFillRate());
        store.close();
        Files.delete(file);
        Files.delete(dir);
    }

    /** chunks counts the chunks in the store's layout map. */
    static int chunks(MVStore s) {
        int c = 0;
        for (String k : s.getLayoutMap().keySet()) {
            if (k.startsWith("chunk.")) {
                c++;
            }
        }
        return c;
    }
}
