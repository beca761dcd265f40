package lockscope.interop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's own lock()/unlock() loop, the performance peer of LockScope's lock client (bench/redisson.cpp). Only the
 * public API: {@code lock.lock(lease, MILLISECONDS)} then {@code lock.unlock()}, as a Java service writes it.
 *
 * <pre>
 * Bench URL uncontended 1 SECONDS [options]   one thread, one lock: cycles, elapsed ns, cycle p50/p99
 * Bench URL handoff THREADS SECONDS [options] THREADS contending on one lock with zero hold time
 *   --lease MS            explicit lease (default 30000 uncontended, 10000 handoff): no watchdog, as the C++ side
 *   --name NAME           the lock (default lockscope-bench:uncontended / lockscope-bench:handoff)
 *   --warmup-seconds S    the JIT's warm-up before anything is measured (default 5; uncontended: longer while the
 *                         rate still rises, at most three times as long)
 *   --database N          SELECT N (default 0); a password comes from $LOCKSCOPE_BENCH_PASSWORD (and a user from
 *                         $LOCKSCOPE_BENCH_USER), never from the command line, so it never shows in ps
 *   --serve               after the warm-up print {"event":"ready",...}; then each stdin line "go [SECONDS]" runs
 *                         one measurement and prints it; "exit" or the end of stdin ends
 * </pre>
 *
 * Results are one JSON line. A served hand-off prints instead each thread's raw events, as bench_handoff's workers do
 * ("W|A|R NANOS THREAD": lock() called, lock() returned, unlock() about to be called, then "done"), so the C++ bench
 * merges them with its own analysis. System.nanoTime() is CLOCK_MONOTONIC on Linux, the clock the C++ side stamps.
 */
public final class Bench {
    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    // Preallocated, so recording never allocates or grows while measuring.
    private static final int MAX_EVENTS = 1 << 20;
    // Enough calls for HotSpot's C2 to have compiled the hot methods (its thresholds are some ten thousand calls).
    private static final long WARM_CYCLES = 30000;

    private final RedissonClient redisson;
    private final String mode;
    private final int threads;
    private final long leaseMs;
    private final String name;
    // Kept from one measurement to the next, so no megabytes are allocated and zeroed as the clock starts.
    private Contest contest;
    private long[] cycleNs;

    private Bench(RedissonClient redisson, String mode, int threads, long leaseMs, String name) {
        this.redisson = redisson;
        this.mode = mode;
        this.threads = threads;
        this.leaseMs = leaseMs;
        this.name = name;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4)
            usage("expected URL MODE THREADS SECONDS");
        String url = args[0];
        String mode = args[1];
        int threads = Integer.parseInt(args[2]);
        double seconds = Double.parseDouble(args[3]);
        boolean handoff = "handoff".equals(mode);
        if (!handoff && !"uncontended".equals(mode))
            usage("unknown mode " + mode);
        long lease = handoff ? 10000 : 30000;
        String name = handoff ? "lockscope-bench:handoff" : "lockscope-bench:uncontended";
        double warmupSeconds = 5;
        int database = 0;
        boolean serve = false;
        for (int i = 4; i < args.length; ++i) {
            switch (args[i]) {
            case "--lease" -> lease = Long.parseLong(args[++i]);
            case "--name" -> name = args[++i];
            case "--warmup-seconds" -> warmupSeconds = Double.parseDouble(args[++i]);
            case "--database" -> database = Integer.parseInt(args[++i]);
            case "--serve" -> serve = true;
            default -> usage("unknown option " + args[i]);
            }
        }
        if ((!handoff && threads != 1) || (handoff && threads < (serve ? 1 : 2)) || seconds <= 0 || lease <= 0)
            usage("uncontended takes 1 thread, handoff 2 or more (1 when served); seconds and lease positive");

        Config config = new Config();
        config.useSingleServer().setAddress(url).setDatabase(database);
        if (System.getenv("LOCKSCOPE_BENCH_PASSWORD") != null)
            config.useSingleServer().setPassword(System.getenv("LOCKSCOPE_BENCH_PASSWORD"));
        if (System.getenv("LOCKSCOPE_BENCH_USER") != null)
            config.useSingleServer().setUsername(System.getenv("LOCKSCOPE_BENCH_USER"));
        Bench bench = new Bench(Redisson.create(config), mode, threads, lease, name);
        try {
            Json warmup = bench.warmUp(warmupSeconds);
            if (!serve) {
                Json result = bench.measure(seconds, false);
                result.raw("warmup", warmup.toString());
                OUT.println(result);
            } else {
                bench.serve(warmup, seconds);
            }
        } finally {
            bench.redisson.shutdown();
        }
        System.exit(0);
    }

    // One measurement per "go [SECONDS]" line, so the C++ bench can interleave this JVM's rounds with its own.
    private void serve(Json warmup, double seconds) throws Exception {
        Json ready = new Json().put("event", "ready");
        ready.raw("warmup", warmup.toString());
        OUT.println(ready);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null;) {
            String[] words = line.trim().split("\\s+");
            if ("exit".equals(words[0]))
                break;
            if (!"go".equals(words[0]))
                usage("expected go [SECONDS] or exit, got " + line);
            double slice = words.length > 1 ? Double.parseDouble(words[1]) : seconds;
            Json result = measure(slice, true);
            if (result != null)
                OUT.println(result);
        }
    }

    private static void usage(String problem) {
        System.err.println("Bench: " + problem);
        System.err.println("usage: Bench URL uncontended|handoff THREADS SECONDS [--lease MS] [--name NAME]"
            + " [--warmup-seconds S] [--database N] [--serve]");
        System.exit(2);
    }

    // The JIT compiles Redisson's and Netty's paths after some thousands of calls, with the compiler's threads sharing
    // the CPUs with the loop: run the very loop that is measured first. Uncontended: the same cycles on the same lock,
    // for at least `seconds` and WARM_CYCLES cycles, then on while a second still makes over 5% more cycles than the
    // one before (at most three times as long: a busy machine slows the warm-up, not what it must reach). Hand-off:
    // uncontended cycles on a lock of this JVM's own (a served contender has nobody to contend with yet: the C++ bench
    // runs contests to warm that path), and, when this JVM holds all the contenders, a contest thrown away for the
    // second half. Each whole second's cycles are reported, to show the rate levelling off.
    private Json warmUp(double seconds) throws Exception {
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        boolean warmContest = "handoff".equals(mode) && threads > 1;
        RLock lock = "handoff".equals(mode) ? redisson.getLock(name + ":warmup:" + ProcessHandle.current().pid())
                                            : redisson.getLock(name);
        long minEnd = warmContest ? start + (end - start) / 2 : end;
        boolean adaptive = "uncontended".equals(mode);
        long maxEnd = adaptive ? start + 3 * (end - start) : minEnd;
        List<Long> perSecond = new ArrayList<>();
        long cycles = 0, inSecond = 0;
        for (long second = start + 1_000_000_000L, now = start; now < maxEnd;) {
            lock.lock(leaseMs, TimeUnit.MILLISECONDS);
            lock.unlock();
            ++cycles;
            ++inSecond;
            now = System.nanoTime();
            if (now < second)
                continue;
            perSecond.add(inSecond);
            inSecond = 0;
            second += 1_000_000_000L;
            int n = perSecond.size();
            boolean levelled = n >= 2 && perSecond.get(n - 1) <= perSecond.get(n - 2) * 1.05;
            if (now >= minEnd && (!adaptive || (cycles >= WARM_CYCLES && levelled)))
                break;
        }
        long contestAcquisitions = 0;
        if (warmContest)
            contestAcquisitions = contest(Math.max(0.1, (end - System.nanoTime()) / 1e9), null).acquired();
        Json j = new Json().put("ms", (System.nanoTime() - start) / 1e6).put("cycles", cycles);
        j.put("java_version", System.getProperty("java.version")).put("gc", collectors());
        if (!perSecond.isEmpty())
            j.put("first_s_cycles", perSecond.get(0)).put("last_s_cycles", perSecond.get(perSecond.size() - 1));
        j.raw("per_s_cycles", perSecond.toString());
        if (warmContest)
            j.put("contest_acquisitions", contestAcquisitions);
        return j;
    }

    private Json measure(double seconds, boolean served) throws Exception {
        if ("uncontended".equals(mode))
            return uncontended(seconds);
        if (served) {
            contest(seconds, OUT);
            return null;
        }
        Contest c = contest(seconds, null);
        return c.summary(seconds, leaseMs);
    }

    // lock(lease); unlock() one after another on one thread; each cycle's time is kept for the percentiles.
    private Json uncontended(double seconds) {
        RLock lock = redisson.getLock(name);
        if (cycleNs == null)
            cycleNs = new long[MAX_EVENTS];
        int n = 0;
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        long last = start;
        while (last < end) {
            lock.lock(leaseMs, TimeUnit.MILLISECONDS);
            lock.unlock();
            long now = System.nanoTime();
            if (n < cycleNs.length)
                cycleNs[n] = now - last;
            ++n;
            last = now;
        }
        long elapsed = last - start;
        long[] sorted = Arrays.copyOf(cycleNs, Math.min(n, cycleNs.length));
        Arrays.sort(sorted);
        return new Json().put("bench", "redisson-uncontended")
            .put("redisson_version", version())
            .put("java_version", System.getProperty("java.version"))
            .put("threads", 1)
            .put("lease_ms", leaseMs)
            .put("cycles", n)
            .put("elapsed_ns", elapsed)
            .put("cycles_per_s", n * 1e9 / elapsed)
            .put("cycle_p50_us", percentile(sorted, 50) / 1e3)
            .put("cycle_p99_us", percentile(sorted, 99) / 1e3);
    }

    // THREADS threads of this JVM, started together, each: lock(lease), unlock() at once, again, until the time is up.
    // Events go to log (served) or stay for the summary.
    private Contest contest(double seconds, PrintStream log) throws Exception {
        RLock lock = redisson.getLock(name);
        if (contest == null)
            contest = new Contest(threads);
        Contest c = contest;
        c.failed = null;
        Arrays.fill(c.count, 0);
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        List<Thread> running = new ArrayList<>();
        long[] deadline = new long[1];
        for (int t = 0; t < threads; ++t) {
            final int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    c.run(index, lock, leaseMs, deadline[0]);
                } catch (Exception e) {
                    c.failed = e;
                }
            }, "contender-" + t);
            running.add(thread);
            thread.start();
        }
        c.goNs = System.nanoTime();
        deadline[0] = c.goNs + (long) (seconds * 1e9);
        start.await();
        for (Thread thread : running)
            thread.join();
        if (c.failed != null)
            throw c.failed;
        if (log != null)
            c.print(log);
        return c;
    }

    // Which collector the JVM chose (its ergonomics pick by CPUs and memory): a caveat to read the figures with.
    private static String collectors() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
            names.add(gc.getName());
        return String.join(",", names);
    }

    private static String version() {
        String v = Redisson.class.getPackage().getImplementationVersion();
        return v != null ? v : "unknown";
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0)
            return Double.NaN;
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(1, Math.min(rank, sorted.length)) - 1];
    }

    /** One contest's events per thread, and bench_handoff's analysis of them. */
    private static final class Contest {
        final long[][] ns;
        final byte[][] kind;
        final int[] count;
        volatile Exception failed;
        long goNs;

        Contest(int threads) {
            ns = new long[threads][MAX_EVENTS];
            kind = new byte[threads][MAX_EVENTS];
            count = new int[threads];
        }

        void run(int t, RLock lock, long leaseMs, long deadline) {
            long[] times = ns[t];
            byte[] kinds = kind[t];
            int n = 0;
            while (n + 3 <= MAX_EVENTS) {
                times[n] = System.nanoTime();
                kinds[n++] = 'W';
                lock.lock(leaseMs, TimeUnit.MILLISECONDS);
                times[n] = System.nanoTime();
                kinds[n++] = 'A';
                // Zero hold time: unlock straight away, stamped just before, as the C++ workers stamp their release.
                times[n] = System.nanoTime();
                kinds[n++] = 'R';
                lock.unlock();
                if (System.nanoTime() >= deadline)
                    break;
            }
            count[t] = n;
        }

        long acquired() {
            long n = 0;
            for (int t = 0; t < count.length; ++t)
                for (int i = 0; i < count[t]; ++i)
                    n += kind[t][i] == 'A' ? 1 : 0;
            return n;
        }

        void print(PrintStream out) {
            StringBuilder text = new StringBuilder();
            for (int t = 0; t < count.length; ++t)
                for (int i = 0; i < count[t]; ++i)
                    text.append((char) kind[t][i]).append(' ').append(ns[t][i]).append(' ').append(t).append('\n');
            text.append("done");
            out.println(text);
        }

        // As bench/handoffstats.cpp: merged in time order, measured until the first contender's last release; each
        // acquisition's hand-off is the time since the preceding release by anyone.
        Json summary(double seconds, long leaseMs) {
            int threads = count.length;
            long cutoff = Long.MAX_VALUE;
            int total = 0;
            for (int t = 0; t < threads; ++t) {
                long lastRelease = -1;
                for (int i = 0; i < count[t]; ++i)
                    if (kind[t][i] == 'R')
                        lastRelease = ns[t][i];
                cutoff = Math.min(cutoff, lastRelease);
                total += count[t];
            }
            long[][] events = new long[total][];
            int e = 0;
            for (int t = 0; t < threads; ++t)
                for (int i = 0; i < count[t]; ++i)
                    events[e++] = new long[] { ns[t][i], kind[t][i], t };
            Arrays.sort(events, (a, b) -> Long.compare(a[0], b[0]));
            List<Long> all = new ArrayList<>(), other = new ArrayList<>(), same = new ArrayList<>();
            long acquired = 0, overlaps = 0, ttlWaits = 0;
            int holder = -1, releaser = -1;
            long releasedAt = 0;
            for (long[] ev : events) {
                if (ev[0] > cutoff)
                    break;
                int t = (int) ev[2];
                if (ev[1] == 'A') {
                    if (holder >= 0)
                        ++overlaps;
                    holder = t;
                    ++acquired;
                    if (releaser < 0)
                        continue;
                    long d = ev[0] - releasedAt;
                    all.add(d);
                    (t == releaser ? same : other).add(d);
                    if (d > leaseMs * 1_000_000L / 2)
                        ++ttlWaits;
                } else if (ev[1] == 'R') {
                    if (holder == t)
                        holder = -1;
                    releaser = t;
                    releasedAt = ev[0];
                }
            }
            double window = (cutoff - goNs) / 1e9;
            return new Json().put("bench", "redisson-handoff")
                .put("redisson_version", version())
                .put("java_version", System.getProperty("java.version"))
                .put("threads", threads)
                .put("seconds", seconds)
                .put("lease_ms", leaseMs)
                .put("acquisitions", acquired)
                .put("acquisitions_per_s", acquired / window)
                .put("median_us", median(all) / 1e3)
                .put("p99_us", percentile(sortedOf(all), 99) / 1e3)
                .put("to_other_thread", other.size())
                .put("to_same_thread", same.size())
                .put("median_other_us", median(other) / 1e3)
                .put("median_same_us", median(same) / 1e3)
                .put("ttl_waits", ttlWaits)
                .put("overlaps", overlaps);
        }

        private static long[] sortedOf(List<Long> values) {
            long[] a = values.stream().mapToLong(Long::longValue).toArray();
            Arrays.sort(a);
            return a;
        }

        private static double median(List<Long> values) {
            long[] a = sortedOf(values);
            if (a.length == 0)
                return Double.NaN;
            return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2.0;
        }
    }

    /** A flat JSON object on one line, its fields in the order put; numbers with three decimals at most. */
    private static final class Json {
        private final StringBuilder json = new StringBuilder("{");

        Json put(String key, String value) {
            return raw(key, quote(value));
        }

        Json put(String key, long value) {
            return raw(key, Long.toString(value));
        }

        Json put(String key, double value) {
            if (!Double.isFinite(value))
                return raw(key, "null");
            String text = String.format(Locale.ROOT, "%.3f", value).replaceAll("0+$", "").replaceAll("\\.$", "");
            return raw(key, text);
        }

        Json raw(String key, String encoded) {
            if (json.length() > 1)
                json.append(", ");
            json.append(quote(key)).append(": ").append(encoded);
            return this;
        }

        private static String quote(String s) {
            StringBuilder q = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\')
                    q.append('\\').append(c);
                else if (c < 0x20)
                    q.append(String.format("\\u%04x", (int) c));
                else
                    q.append(c);
            }
            return q.append('"').toString();
        }

        @Override
        public String toString() {
            return json + "}";
        }
    }
}
