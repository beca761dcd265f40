<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>LockScope</name>
    <message numerus="yes">
        <source>Imported %n profile(s) from %1.</source>
        <translation>
            <numerusform>Imported %n profile from %1.</numerusform>
            <numerusform>Imported %n profiles from %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n password(s) went to the system keychain.</source>
        <translation>
            <numerusform>%n password went to the system keychain.</numerusform>
            <numerusform>%n passwords went to the system keychain.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n password(s) were not kept: no keychain answers here, so they are asked for when connecting.</source>
        <translation>
            <numerusform>%n password was not kept: no keychain answers here, so they are asked for when connecting.</numerusform>
            <numerusform>%n passwords were not kept: no keychain answers here, so they are asked for when connecting.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>queued: %1 (%n waiting)</source>
        <translation>
            <numerusform>queued: %1 (%n waiting)</numerusform>
            <numerusform>queued: %1 (%n waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>retried %n time(s), %1/s, from %2 (traced)</source>
        <translation>
            <numerusform>retried once, %1/s, from %2 (traced)</numerusform>
            <numerusform>retried %n times, %1/s, from %2 (traced)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>renewals stopped: the last was %1 ago, %2 periods of %3 overdue (%n renewal(s) seen)</source>
        <translation>
            <numerusform>renewals stopped: the last was %1 ago, %2 periods of %3 overdue (%n renewal seen)</numerusform>
            <numerusform>renewals stopped: the last was %1 ago, %2 periods of %3 overdue (%n renewals seen)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>renewed %1 ago, every %2 (%n renewal(s) seen)</source>
        <translation>
            <numerusform>renewed %1 ago, every %2 (%n renewal seen)</numerusform>
            <numerusform>renewed %1 ago, every %2 (%n renewals seen)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>held %1%2, %3× the lock&apos;s usual hold (p95 %4 over %n hold(s)): a hung thread keeps its lock as long as its watchdog runs</source>
        <translation>
            <numerusform>held %1%2, %3× the lock&apos;s usual hold (p95 %4 over %n hold): a hung thread keeps its lock as long as its watchdog runs</numerusform>
            <numerusform>held %1%2, %3× the lock&apos;s usual hold (p95 %4 over %n holds): a hung thread keeps its lock as long as its watchdog runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::AuditLogView</name>
    <message numerus="yes">
        <source>%n record(s) in %1; the newest first.</source>
        <translation>
            <numerusform>%n record in %1; the newest first.</numerusform>
            <numerusform>%n records in %1; the newest first.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::BlockersModel</name>
    <message numerus="yes">
        <source>deadlock: %n owner(s)</source>
        <translation>
            <numerusform>deadlock: %n owner</numerusform>
            <numerusform>deadlock: %n owners</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::BlockersPane</name>
    <message numerus="yes">
        <source>%n root blocker(s)</source>
        <translation>
            <numerusform>%n root blocker</numerusform>
            <numerusform>%n root blockers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deadlock(s)</source>
        <translation>
            <numerusform>%n deadlock</numerusform>
            <numerusform>%n deadlocks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::AdviseCommand</name>
    <message numerus="yes">
        <source>%1  %2/%3  %n hold(s)  p50 %4 s  p95 %5 s  max %6 s  lease %7 s%8</source>
        <translation>
            <numerusform>%1  %2/%3  %n hold  p50 %4 s  p95 %5 s  max %6 s  lease %7 s%8</numerusform>
            <numerusform>%1  %2/%3  %n holds  p50 %4 s  p95 %5 s  max %6 s  lease %7 s%8</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::AtCommand</name>
    <message numerus="yes">
        <source>at %1, %n lock(s) held:</source>
        <translation>
            <numerusform>at %1, %n lock held:</numerusform>
            <numerusform>at %1, %n locks held:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::BlockersCommand</name>
    <message numerus="yes">
        <source>%n root blocker(s), %1</source>
        <translation>
            <numerusform>%n root blocker, %1</numerusform>
            <numerusform>%n root blockers, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deadlock(s)</source>
        <translation>
            <numerusform>%n deadlock</numerusform>
            <numerusform>%n deadlocks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 · %n waiting</source>
        <translation>
            <numerusform>%1: %2 · %n waiting</numerusform>
            <numerusform>%1: %2 · %n waiting</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (+%n unnamed)</source>
        <translation>
            <numerusform> (+%n unnamed)</numerusform>
            <numerusform> (+%n unnamed)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>deadlock among %n owner(s):</source>
        <translation>
            <numerusform>deadlock among %n owner:</numerusform>
            <numerusform>deadlock among %n owners:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::GuideCommand</name>
    <message numerus="yes">
        <source>%n listening</source>
        <translation>
            <numerusform>%n listening</numerusform>
            <numerusform>%n listening</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>guide %1: %n step(s) went otherwise than described</source>
        <translation>
            <numerusform>guide %1: %n step went otherwise than described</numerusform>
            <numerusform>guide %1: %n steps went otherwise than described</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n received the message</source>
        <translation>
            <numerusform>%n received the message</numerusform>
            <numerusform>%n received the message</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ListCommand</name>
    <message numerus="yes">
        <source>%n lock(s)</source>
        <translation>
            <numerusform>%n lock</numerusform>
            <numerusform>%n locks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n holders</source>
        <translation>
            <numerusform>%n holder</numerusform>
            <numerusform>%n holders</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ReapCommand</name>
    <message numerus="yes">
        <source>%n to release</source>
        <translation>
            <numerusform>%n to release</numerusform>
            <numerusform>%n to release</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Release these %n lock hold(s) as their libraries would, waking their waiters? [y/N] </source>
        <translation>
            <numerusform>Release this lock hold as its library would, waking its waiters? [y/N] </numerusform>
            <numerusform>Release these %n lock holds as their libraries would, waking their waiters? [y/N] </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::RecordCommand</name>
    <message numerus="yes">
        <source>watching %n lock(s) via %1</source>
        <translation>
            <numerusform>watching %n lock via %1</numerusform>
            <numerusform>watching %n locks via %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ReleaseClientCommand</name>
    <message numerus="yes">
        <source>Release all %n item(s) of %1 and wake their waiters? [y/N] </source>
        <translation>
            <numerusform>Release the %n item of %1 and wake its waiters? [y/N] </numerusform>
            <numerusform>Release all %n items of %1 and wake their waiters? [y/N] </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 holds or waits for %n item(s):</source>
        <translation>
            <numerusform>%1 holds or waits for %n item:</numerusform>
            <numerusform>%1 holds or waits for %n items:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::RepairQueueCommand</name>
    <message numerus="yes">
        <source>Remove %n dead waiter(s) from the queue of %1 and wake the new head? [y/N] </source>
        <translation>
            <numerusform>Remove %n dead waiter from the queue of %1 and wake the new head? [y/N] </numerusform>
            <numerusform>Remove %n dead waiters from the queue of %1 and wake the new head? [y/N] </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>
removed %n dead waiter(s); the new head is woken when the holder releases</source>
        <translation>
            <numerusform>
removed %n dead waiter; the new head is woken when the holder releases</numerusform>
            <numerusform>
removed %n dead waiters; the new head is woken when the holder releases</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>
removed %n dead waiter(s); the new head was woken</source>
        <translation>
            <numerusform>
removed %n dead waiter; the new head was woken</numerusform>
            <numerusform>
removed %n dead waiters; the new head was woken</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ServeMetricsCommand</name>
    <message numerus="yes">
        <source>watching %n lock(s) via %1</source>
        <translation>
            <numerusform>watching %n lock via %1</numerusform>
            <numerusform>watching %n locks via %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n to release</source>
        <translation>
            <numerusform>%n to release</numerusform>
            <numerusform>%n to release</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::StatsCommand</name>
    <message numerus="yes">
        <source>watching %n lock(s) for %1 s via %2...</source>
        <translation>
            <numerusform>watching %n lock for %1 s via %2...</numerusform>
            <numerusform>watching %n locks for %1 s via %2...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>recording %1: %2 to %3, %n event(s), %4 gap(s) in what was seen</source>
        <translation>
            <numerusform>recording %1: %2 to %3, %n event, %4 gap(s) in what was seen</numerusform>
            <numerusform>recording %1: %2 to %3, %n events, %4 gap(s) in what was seen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::StatsWatchCommand</name>
    <message numerus="yes">
        <source>%1  %n lock(s), %2 tracked, watched %3 s via %4</source>
        <translation>
            <numerusform>%1  %n lock, %2 tracked, watched %3 s via %4</numerusform>
            <numerusform>%1  %n locks, %2 tracked, watched %3 s via %4</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::WatchCommand</name>
    <message numerus="yes">
        <source>watching %n lock(s) matching %1 via %2</source>
        <translation>
            <numerusform>watching %n lock matching %1 via %2</numerusform>
            <numerusform>watching %n locks matching %1 via %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::CounterLayout</name>
    <message numerus="yes">
        <source>%n to count down</source>
        <translation>
            <numerusform>%n to count down</numerusform>
            <numerusform>%n to count down</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n permit(s) free</source>
        <translation>
            <numerusform>%n permit free</numerusform>
            <numerusform>%n permits free</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Explainer</name>
    <message numerus="yes">
        <source>renewed %n time(s)%1, the last at %2</source>
        <translation>
            <numerusform>renewed %n time%1, the last at %2</numerusform>
            <numerusform>renewed %n times%1, the last at %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>renewal gap of %1 at %2: %n renewal(s) missed, a pause the holder survived</source>
        <translation>
            <numerusform>renewal gap of %1 at %2: %n renewal missed, a pause the holder survived</numerusform>
            <numerusform>renewal gap of %1 at %2: %n renewals missed, a pause the holder survived</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ForceReleaseDialog</name>
    <message numerus="yes">
        <source>The %n waiter(s) listening on %1 are woken.</source>
        <translation>
            <numerusform>The %n waiter listening on %1 is woken.</numerusform>
            <numerusform>The %n waiters listening on %1 are woken.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The head of its queue of %n waiter(s), %1, is woken on its own channel %2; the others take their turns after it.</source>
        <translation>
            <numerusform>The head of its queue of %n waiter, %1, is woken on its own channel %2; nobody else is queued.</numerusform>
            <numerusform>The head of its queue of %n waiters, %1, is woken on its own channel %2; the others take their turns after it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Guide</name>
    <message numerus="yes">
        <source>%n client(s) listen on the channel</source>
        <translation>
            <numerusform>%n client listens on the channel</numerusform>
            <numerusform>%n clients listen on the channel</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::ChannelStrip</name>
    <message numerus="yes">
        <source>%1   %n client(s) listening</source>
        <translation>
            <numerusform>%1   %n client listening</numerusform>
            <numerusform>%1   %n clients listening</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&quot;%1&quot; from %2 → %n receiver(s)</source>
        <translation>
            <numerusform>&quot;%1&quot; from %2 → %n receiver</numerusform>
            <numerusform>&quot;%1&quot; from %2 → %n receivers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuidePlayer</name>
    <message numerus="yes">
        <source>the server already holds %n guided:* key(s); the guided demo writes only guided:* keys and will not touch ones it did not write: delete them first, or use another database</source>
        <translation>
            <numerusform>the server already holds %n guided:* key; the guided demo writes only guided:* keys and will not touch ones it did not write: delete them first, or use another database</numerusform>
            <numerusform>the server already holds %n guided:* keys; the guided demo writes only guided:* keys and will not touch ones it did not write: delete them first, or use another database</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuideWindow</name>
    <message numerus="yes">
        <source>Done: %n step(s) went otherwise than narrated (in red).</source>
        <translation>
            <numerusform>Done: %n step went otherwise than narrated (in red).</numerusform>
            <numerusform>Done: %n steps went otherwise than narrated (in red).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::RedissonClient</name>
    <message numerus="yes">
        <source>this client&apos;s entry for the lock is reused: no new SUBSCRIBE (shared by %n thread(s))</source>
        <translation>
            <numerusform>this client&apos;s entry for the lock is reused: no new SUBSCRIBE (shared by %n thread)</numerusform>
            <numerusform>this client&apos;s entry for the lock is reused: no new SUBSCRIBE (shared by %n threads)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LeaseView</name>
    <message numerus="yes">
        <source>%n lock(s) held</source>
        <translation>
            <numerusform>%n lock held</numerusform>
            <numerusform>%n locks held</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with advice</source>
        <translation>
            <numerusform>%n with advice</numerusform>
            <numerusform>%n with advice</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LockClassifier</name>
    <message numerus="yes">
        <source>its permit set %1 holds %n permit(s) taken</source>
        <translation>
            <numerusform>its permit set %1 holds %n permit taken</numerusform>
            <numerusform>its permit set %1 holds %n permits taken</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n permit(s) expired: Redisson gives them back at the next acquire, not before</source>
        <translation>
            <numerusform>%n permit expired: Redisson gives them back at the next acquire, not before</numerusform>
            <numerusform>%n permits expired: Redisson gives them back at the next acquire, not before</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>a fair queue (%n waiting) with no lock hash</source>
        <translation>
            <numerusform>a fair queue (%n waiting) with no lock hash</numerusform>
            <numerusform>a fair queue (%n waiting) with no lock hash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>a fair queue exists (%n waiting)</source>
        <translation>
            <numerusform>a fair queue exists (%n waiting)</numerusform>
            <numerusform>a fair queue exists (%n waiting)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n owners in an exclusive lock</source>
        <translation>
            <numerusform>%n owner in an exclusive lock</numerusform>
            <numerusform>%n owners in an exclusive lock</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) listen on its wake-up channel</source>
        <translation>
            <numerusform>%n client listens on its wake-up channel</numerusform>
            <numerusform>%n clients listen on its wake-up channel</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) listen on its shard channel (sharded pub/sub)</source>
        <translation>
            <numerusform>%n client listens on its shard channel (sharded pub/sub)</numerusform>
            <numerusform>%n clients listen on its shard channel (sharded pub/sub)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n permit(s) not refreshed for over 10 s: with the default lockTimeout their holder is gone, and the next acquire drops them</source>
        <translation>
            <numerusform>%n permit not refreshed for over 10 s: with the default lockTimeout their holder is gone, and the next acquire drops them</numerusform>
            <numerusform>%n permits not refreshed for over 10 s: with the default lockTimeout their holder is gone, and the next acquire drops them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hold(s) expired: Symfony drops them at the next acquire, not before</source>
        <translation>
            <numerusform>%n hold expired: Symfony drops them at the next acquire, not before</numerusform>
            <numerusform>%n holds expired: Symfony drops them at the next acquire, not before</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LockClient</name>
    <message numerus="yes">
        <source>none of the %n replica(s) acknowledged the acquire within %1 ms</source>
        <translation>
            <numerusform>none of the %n replica acknowledged the acquire within %1 ms</numerusform>
            <numerusform>none of the %n replicas acknowledged the acquire within %1 ms</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LockLayout</name>
    <message numerus="yes">
        <source>%n permit(s) taken</source>
        <translation>
            <numerusform>%n permit taken</numerusform>
            <numerusform>%n permits taken</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LockTableModel</name>
    <message numerus="yes">
        <source>%n holder(s)</source>
        <translation>
            <numerusform>%n holder</numerusform>
            <numerusform>%n holders</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n wait(s) timed from the fair queue&apos;s entries (threads)</source>
        <translation>
            <numerusform>%n wait timed from the fair queue&apos;s entries (threads)</numerusform>
            <numerusform>%n waits timed from the fair queue&apos;s entries (threads)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n wait(s) timed from subscriptions to its wake-up channel (connections: a JVM has one whatever its waiting threads; inferred)</source>
        <translation>
            <numerusform>%n wait timed from subscriptions to its wake-up channel (connections: a JVM has one whatever its waiting threads; inferred)</numerusform>
            <numerusform>%n waits timed from subscriptions to its wake-up channel (connections: a JVM has one whatever its waiting threads; inferred)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LockTracker</name>
    <message numerus="yes">
        <source>deleted without an unlock (%n level(s) held): its owner&apos;s unlock will fail</source>
        <translation>
            <numerusform>deleted without an unlock (%n level held): its owner&apos;s unlock will fail</numerusform>
            <numerusform>deleted without an unlock (%n levels held): its owner&apos;s unlock will fail</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n level(s) still held</source>
        <translation>
            <numerusform>%n level still held</numerusform>
            <numerusform>%n levels still held</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n waiting</source>
        <translation>
            <numerusform>%n waiting</numerusform>
            <numerusform>%n waiting</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LocksPane</name>
    <message numerus="yes">
        <source>%1 (%n lock(s))</source>
        <translation>
            <numerusform>%1 (%n lock)</numerusform>
            <numerusform>%1 (%n locks)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::MainWindow</name>
    <message numerus="yes">
        <source>This console holds %n lock(s): %1.</source>
        <translation>
            <numerusform>This console holds %n lock: %1.</numerusform>
            <numerusform>This console holds %n locks: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) could not be released; not quitting</source>
        <translation>
            <numerusform>%n lock could not be released; not quitting</numerusform>
            <numerusform>%n locks could not be released; not quitting</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Ops</name>
    <message numerus="yes">
        <source>force-released %1; the %n waiter(s) on %2 were woken</source>
        <translation>
            <numerusform>force-released %1; the %n waiter on %2 was woken</numerusform>
            <numerusform>force-released %1; the %n waiters on %2 were woken</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>released %1 for %2; the %n waiter(s) listening on %3 were woken</source>
        <translation>
            <numerusform>released %1 for %2; the %n waiter listening on %3 was woken</numerusform>
            <numerusform>released %1 for %2; the %n waiters listening on %3 were woken</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>force-released %1; the head of its queue of %n waiter(s) was woken on its own channel</source>
        <translation>
            <numerusform>force-released %1; the head of its queue of %n waiter was woken on its own channel</numerusform>
            <numerusform>force-released %1; the head of its queue of %n waiters was woken on its own channel</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>added %n permit(s) to %1: %2 free now; its waiters told on %3</source>
        <translation>
            <numerusform>added %n permit to %1: %2 free now; its waiters told on %3</numerusform>
            <numerusform>added %n permits to %1: %2 free now; its waiters told on %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>released %n item(s) of %1 as their libraries would, waking their waiters</source>
        <translation>
            <numerusform>released %n item of %1 as its library would, waking its waiters</numerusform>
            <numerusform>released %n items of %1 as their libraries would, waking their waiters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n had changed since they were shown and were left alone</source>
        <translation>
            <numerusform>; %n had changed since it was shown and was left alone</numerusform>
            <numerusform>; %n had changed since they were shown and were left alone</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n failed</source>
        <translation>
            <numerusform>; %n failed</numerusform>
            <numerusform>; %n failed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>reaped %n lock hold(s) as their libraries would, waking their waiters</source>
        <translation>
            <numerusform>reaped %n lock hold as its library would, waking its waiters</numerusform>
            <numerusform>reaped %n lock holds as their libraries would, waking their waiters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n had changed since the report and were left alone</source>
        <translation>
            <numerusform>; %n had changed since the report and was left alone</numerusform>
            <numerusform>; %n had changed since the report and were left alone</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::PermitSetLayout</name>
    <message numerus="yes">
        <source>%n permit(s) taken</source>
        <translation>
            <numerusform>%n permit taken</numerusform>
            <numerusform>%n permits taken</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReapReport</name>
    <message numerus="yes">
        <source>policy %1 on %2: %n lock hold(s) to release</source>
        <translation>
            <numerusform>policy %1 on %2: %n lock hold to release</numerusform>
            <numerusform>policy %1 on %2: %n lock holds to release</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReclaimDialog</name>
    <message numerus="yes">
        <source>Release %n lock hold(s)</source>
        <translation>
            <numerusform>Release %n lock hold</numerusform>
            <numerusform>Release %n lock holds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Policy %1 on %2: %n lock hold(s) to release.</source>
        <translation>
            <numerusform>Policy %1 on %2: %n lock hold to release.</numerusform>
            <numerusform>Policy %1 on %2: %n lock holds to release.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more left alone (over the run&apos;s quota, or protected).</source>
        <translation>
            <numerusform>%n more left alone (over the run&apos;s quota, or protected).</numerusform>
            <numerusform>%n more left alone (over the run&apos;s quota, or protected).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lock hold(s) the check found were not in the report shown and were left alone.</source>
        <translation>
            <numerusform>%n lock hold the check found was not in the report shown and was left alone.</numerusform>
            <numerusform>%n lock holds the check found were not in the report shown and were left alone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReclaimFlow</name>
    <message numerus="yes">
        <source>Watching the locks policy %1 covers (%2) for %n s, its longest verdict_for…</source>
        <translation>
            <numerusform>Watching the locks policy %1 covers (%2) for %n s, its longest verdict_for…</numerusform>
            <numerusform>Watching the locks policy %1 covers (%2) for %n s, its longest verdict_for…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Recorder</name>
    <message numerus="yes">
        <source>the recorder fell behind what the monitor saw: %n event(s) not kept</source>
        <translation>
            <numerusform>the recorder fell behind what the monitor saw: %n event not kept</numerusform>
            <numerusform>the recorder fell behind what the monitor saw: %n events not kept</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::RedisRouter</name>
    <message numerus="yes">
        <source>cluster: %n master(s), </source>
        <translation>
            <numerusform>cluster: %n master, </numerusform>
            <numerusform>cluster: %n masters, </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s), </source>
        <translation>
            <numerusform>%n replica, </numerusform>
            <numerusform>%n replicas, </numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReleaseClientDialog</name>
    <message numerus="yes">
        <source>&lt;p&gt;Release everything &lt;b&gt;%1&lt;/b&gt; holds or waits for here, %n item(s), each as its library&apos;s own release gives it back: every level of a hold, its waiters woken; a place in a fair queue given up, the new head told.&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;Release everything &lt;b&gt;%1&lt;/b&gt; holds or waits for here, %n item, as its library&apos;s own release gives it back: every level of a hold, its waiters woken; a place in a fair queue given up, the new head told.&lt;/p&gt;</numerusform>
            <numerusform>&lt;p&gt;Release everything &lt;b&gt;%1&lt;/b&gt; holds or waits for here, %n items, each as its library&apos;s own release gives it back: every level of a hold, its waiters woken; a place in a fair queue given up, the new head told.&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Even if alive: %n item(s) look alive; release them all the same (their holder may still be working under the lock)</source>
        <translation>
            <numerusform>Even if alive: %n item looks alive; release it all the same (its holder may still be working under the lock)</numerusform>
            <numerusform>Even if alive: %n items look alive; release them all the same (their holders may still be working under the locks)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&amp;Release %n item(s)</source>
        <translation>
            <numerusform>&amp;Release %n item</numerusform>
            <numerusform>&amp;Release %n items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) look alive: releasing a live holder breaks the exclusion it relies on. Tick &quot;Even if alive&quot; once you know it is gone.</source>
        <translation>
            <numerusform>%n item looks alive: releasing a live holder breaks the exclusion it relies on. Tick &quot;Even if alive&quot; once you know it is gone.</numerusform>
            <numerusform>%n items look alive: releasing a live holder breaks the exclusion it relies on. Tick &quot;Even if alive&quot; once you know they are gone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReleaseNamespaceWatch</name>
    <message numerus="yes">
        <source>released with PUBLISH while its %n waiter(s) listen on the shard channel (SSUBSCRIBE): they sleep until their TTL; publish with both</source>
        <translation>
            <numerusform>released with PUBLISH while its %n waiter listens on the shard channel (SSUBSCRIBE): they sleep until their TTL; publish with both</numerusform>
            <numerusform>released with PUBLISH while its %n waiters listen on the shard channel (SSUBSCRIBE): they sleep until their TTL; publish with both</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>released with SPUBLISH while its %n waiter(s) listen on the plain channel (SUBSCRIBE): they sleep until their TTL; publish with both</source>
        <translation>
            <numerusform>released with SPUBLISH while its %n waiter listens on the plain channel (SUBSCRIBE): they sleep until their TTL; publish with both</numerusform>
            <numerusform>released with SPUBLISH while its %n waiters listen on the plain channel (SUBSCRIBE): they sleep until their TTL; publish with both</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReplayWindow</name>
    <message numerus="yes">
        <source>History of %1: %n event(s)</source>
        <translation>
            <numerusform>History of %1: %n event</numerusform>
            <numerusform>History of %1: %n events</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2: %n lock(s)</source>
        <translation>
            <numerusform>%1 on %2: %n lock</numerusform>
            <numerusform>%1 on %2: %n locks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n held</source>
        <translation>
            <numerusform>%n held</numerusform>
            <numerusform>%n held</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ServerStatus</name>
    <message numerus="yes">
        <source>replica reads, up to %n s behind</source>
        <translation>
            <numerusform>replica reads, up to %n s behind</numerusform>
            <numerusform>replica reads, up to %n s behind</numerusform>
        </translation>
    </message>
</context>
</TS>
