package lockscope.interop;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RCountDownLatch;
import org.redisson.api.RLock;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson itself, driven by LockScope's tests over JSON lines (tests/tst_redisson.cpp).
 *
 * Started as {@code Driver URL [WATCHDOG_TIMEOUT_MS]}; prints {@code {"event":"ready","client_id":...}} once connected.
 * Each request names a thread: every thread is a real Java thread of its own, because Redisson writes the calling
 * thread's id into a lock's hash, and a lock taken on one thread can only be unlocked on it. A request's reply comes when
 * the call returns (a lock() that waits answers when it got the lock), with the thread's id, the value, or the
 * exception's class and message as Redisson threw it.
 */
public final class Driver {
    private static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    private final RedissonClient redisson;
    private final String clientId;
    private final Map<String, ExecutorService> threads = new ConcurrentHashMap<>();
    private final Map<String, Future<?>> running = new ConcurrentHashMap<>();

    private Driver(RedissonClient redisson) {
        this.redisson = redisson;
        this.clientId = idOf(redisson);
    }

    public static void main(String[] args) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(args[0]);
        if (args.length > 1)
            config.setLockWatchdogTimeout(Long.parseLong(args[1]));
        Driver driver = new Driver(Redisson.create(config));
        Reply ready = new Reply();
        ready.put("event", "ready");
        ready.put("client_id", driver.clientId);
        emit(ready);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank())
                continue;
            Request request = Request.parse(line);
            if ("exit".equals(request.path("op").asText()))
                break;
            driver.dispatch(request);
        }
        driver.redisson.shutdown();
        System.exit(0);
    }

    // Redisson's id for this client: the UUID before ":<thread id>" in every lock field it writes.
    private static String idOf(RedissonClient redisson) {
        try {
            return String.valueOf(redisson.getClass().getMethod("getId").invoke(redisson));
        } catch (ReflectiveOperationException e) {
            return "";
        }
    }

    private static synchronized void emit(Reply node) {
        OUT.println(node.toString());
    }

    private void dispatch(Request request) {
        String thread = request.path("thread").asText("main");
        if ("interrupt".equals(request.path("op").asText())) {
            Future<?> call = running.get(thread);
            Reply reply = new Reply();
            reply.put("id", request.path("id").asLong());
            reply.put("ok", call != null && call.cancel(true));
            emit(reply);
            return;
        }
        ExecutorService executor = threads.computeIfAbsent(thread, name -> Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "driver-" + name);
            t.setDaemon(true);
            return t;
        }));
        running.put(thread, executor.submit(() -> run(request)));
    }

    private void run(Request request) {
        Reply reply = new Reply();
        reply.put("id", request.path("id").asLong());
        long threadId = Thread.currentThread().getId();
        reply.put("thread_id", threadId);
        reply.put("owner", clientId + ":" + threadId);
        try {
            Object value = call(request);
            reply.put("ok", true);
            if (value instanceof Boolean b)
                reply.put("value", b);
            else if (value instanceof Number n)
                reply.put("value", n.longValue());
            else if (value != null)
                reply.put("value", value.toString());
        } catch (Throwable e) {
            Throwable thrown = e instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : e;
            reply.put("ok", false);
            reply.put("error", thrown.getClass().getName());
            reply.put("message", String.valueOf(thrown.getMessage()));
            Throwable root = thrown;
            while (root.getCause() != null && root.getCause() != root)
                root = root.getCause();
            reply.put("root_error", root.getClass().getName());
        }
        emit(reply);
    }

    // One RLock object per thread, kind and name, as application code keeps one for its lock() and its unlock():
    // Redisson remembers the lease given to lock() in the object (a partial unlock restarts the lease with it).
    private final Map<String, RLock> locks = new ConcurrentHashMap<>();

    private RLock lockOf(String kind, String name) throws ReflectiveOperationException {
        String key = Thread.currentThread().getName() + "\u0000" + kind + "\u0000" + name;
        RLock lock = locks.get(key);
        if (lock == null) {
            lock = newLock(kind, name);
            locks.put(key, lock);
        }
        return lock;
    }

    private RLock newLock(String kind, String name) throws ReflectiveOperationException {
        switch (kind) {
        case "fair":
            return redisson.getFairLock(name);
        case "read":
            return redisson.getReadWriteLock(name).readLock();
        case "write":
            return redisson.getReadWriteLock(name).writeLock();
        case "fenced":
            // Since Redisson 3.23: reached by name, so the driver builds against older versions too.
            return (RLock) redisson.getClass().getMethod("getFencedLock", String.class).invoke(redisson, name);
        default:
            return redisson.getLock(name);
        }
    }

    private Object call(Request r) throws Exception {
        String op = r.path("op").asText();
        String kind = r.path("kind").asText("lock");
        String name = r.path("name").asText();
        long lease = r.path("lease").asLong(-1);
        long wait = r.path("wait").asLong(0);
        switch (op) {
        case "lock": {
            RLock lock = lockOf(kind, name);
            if ("fenced".equals(kind)) {
                Method m = lease > 0 ? lock.getClass().getMethod("lockAndGetToken", long.class, TimeUnit.class)
                                     : lock.getClass().getMethod("lockAndGetToken");
                return lease > 0 ? m.invoke(lock, lease, TimeUnit.MILLISECONDS) : m.invoke(lock);
            }
            if (lease > 0)
                lock.lock(lease, TimeUnit.MILLISECONDS);
            else
                lock.lock();
            return lock.getHoldCount();
        }
        case "lockInterruptibly": {
            RLock lock = lockOf(kind, name);
            if (lease > 0)
                lock.lockInterruptibly(lease, TimeUnit.MILLISECONDS);
            else
                lock.lockInterruptibly();
            return lock.getHoldCount();
        }
        case "tryLock":
            return lockOf(kind, name).tryLock(wait, lease, TimeUnit.MILLISECONDS);
        case "unlock":
            lockOf(kind, name).unlock();
            return null;
        case "forceUnlock":
            return lockOf(kind, name).forceUnlock();
        case "holdCount":
            return lockOf(kind, name).getHoldCount();
        case "isLocked":
            return lockOf(kind, name).isLocked();
        case "trySetPermits":
            return "expirable".equals(kind) ? redisson.getPermitExpirableSemaphore(name).trySetPermits(r.path("permits").asInt())
                                            : redisson.getSemaphore(name).trySetPermits(r.path("permits").asInt());
        case "availablePermits":
            return "expirable".equals(kind) ? redisson.getPermitExpirableSemaphore(name).availablePermits()
                                            : redisson.getSemaphore(name).availablePermits();
        case "acquire": {
            if ("expirable".equals(kind)) {
                RPermitExpirableSemaphore s = redisson.getPermitExpirableSemaphore(name);
                return lease > 0 ? s.acquire(lease, TimeUnit.MILLISECONDS) : s.acquire();
            }
            RSemaphore s = redisson.getSemaphore(name);
            s.acquire();
            return null;
        }
        case "release":
            if ("expirable".equals(kind)) {
                redisson.getPermitExpirableSemaphore(name).release(r.path("permit").asText());
                return null;
            }
            redisson.getSemaphore(name).release();
            return null;
        case "trySetCount":
            return redisson.getCountDownLatch(name).trySetCount(r.path("count").asLong());
        case "await": {
            RCountDownLatch latch = redisson.getCountDownLatch(name);
            if (wait > 0)
                return latch.await(wait, TimeUnit.MILLISECONDS);
            latch.await();
            return true;
        }
        case "countDown":
            redisson.getCountDownLatch(name).countDown();
            return null;
        case "getCount":
            return redisson.getCountDownLatch(name).getCount();
        default:
            throw new IllegalArgumentException("unknown op " + op);
        }
    }
}
