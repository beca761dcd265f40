<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AcquireCheck</name>
    <message>
        <source>a reentrant lock (a lock hash with no mode field, fencing token or fair queue)</source>
        <translation>可重入锁（没有 mode 字段、公平队列或防护令牌的锁哈希）</translation>
    </message>
    <message>
        <source>a fenced lock (its fencing token key %1 exists)</source>
        <translation>防护锁（其防护令牌键 %1 存在）</translation>
    </message>
    <message>
        <source>a fair lock (its wait queue %1 or timeout set %2 exists)</source>
        <translation>公平锁（其等待队列 %1 或超时集合 %2 存在）</translation>
    </message>
    <message>
        <source>a read-write lock (its hash has a mode field)</source>
        <translation>读写锁（其哈希有 mode 字段）</translation>
    </message>
    <message>
        <source>a %1, not a lock</source>
        <translation>%1，不是锁</translation>
    </message>
    <message>
        <source>cannot acquire %1 as %2: it is %3; nothing was written</source>
        <translation>无法以%2获取 %1：它是%3；未写入任何内容</translation>
    </message>
    <message>
        <source>a string that is not an integer, or one at the 64-bit limit</source>
        <translation>不是整数的字符串，或已达 64 位上限的整数</translation>
    </message>
    <message>
        <source>a %1</source>
        <translation>%1</translation>
    </message>
    <message>
        <source>the fencing token key %1 is not an integer counter (it holds %2); nothing was written</source>
        <translation>防护令牌键 %1 不是整数计数器（它存放的是%2）；未写入任何内容</translation>
    </message>
    <message>
        <source>a reentrant lock</source>
        <translation>可重入锁</translation>
    </message>
    <message>
        <source>a fenced lock</source>
        <translation>防护锁</translation>
    </message>
    <message>
        <source>a read lock</source>
        <translation>读锁</translation>
    </message>
    <message>
        <source>a write lock</source>
        <translation>写锁</translation>
    </message>
    <message>
        <source>a fair lock</source>
        <translation>公平锁</translation>
    </message>
    <message>
        <source>a string lock (SET NX)</source>
        <translation>字符串锁（SET NX）</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>unknown language &quot;%1&quot;; available: %2</source>
        <translation>未知语言“%1”；可用：%2</translation>
    </message>
    <message>
        <source>Desktop monitor and console for Redisson-style distributed locks.</source>
        <translation>Redisson 风格分布式锁的桌面监视器与控制台。</translation>
    </message>
    <message>
        <source>redis:// or rediss:// URL (default: $LOCKSCOPE_URL; without either, demo mode)</source>
        <translation>redis:// 或 rediss:// URL（默认：$LOCKSCOPE_URL；两者都没有时进入演示模式）</translation>
    </message>
    <message>
        <source>refuse every write before it reaches the wire</source>
        <translation>拒绝一切写操作，不发往服务器</translation>
    </message>
    <message>
        <source>en or zh_CN (default: the system locale)</source>
        <translation>en 或 zh_CN（默认：系统区域设置）</translation>
    </message>
    <message>
        <source>run simulated Redisson clients, on a private redis-server unless --url is given; everything it started stops when the window closes</source>
        <translation>运行模拟的 Redisson 客户端；未指定 --url 时使用私有 redis-server；窗口关闭时停止其启动的一切</translation>
    </message>
    <message>
        <source>unexpected argument &quot;%1&quot;; see --help</source>
        <translation>多余的参数“%1”；参见 --help</translation>
    </message>
    <message>
        <source>reach Redis (and every node or sentinel it names) through this SSH host</source>
        <translation>经由此 SSH 主机访问 Redis（以及它指出的每个节点或 Sentinel）</translation>
    </message>
    <message>
        <source>private key for --ssh (default: the agent, then ~/.ssh/id_*)</source>
        <translation>--ssh 使用的私钥（默认：先用 SSH 代理，再用 ~/.ssh/id_*）</translation>
    </message>
    <message>
        <source>known_hosts file to check the SSH host key against (default: ~/.ssh/known_hosts)</source>
        <translation>用来核对 SSH 主机密钥的 known_hosts 文件（默认：~/.ssh/known_hosts）</translation>
    </message>
    <message>
        <source>--ssh needs --url: the server as the SSH host sees it</source>
        <translation>--ssh 需要 --url：即从 SSH 主机看到的服务器地址</translation>
    </message>
    <message>
        <source>--ssh-key and --ssh-known-hosts need --ssh</source>
        <translation>--ssh-key 和 --ssh-known-hosts 需要与 --ssh 一起使用</translation>
    </message>
    <message>
        <source>open the guided demo: Redisson&apos;s lock protocol step by step (with a scenario ID or slug after it: that one, ready to play)</source>
        <translation>打开引导演示：逐步讲解 Redisson 的锁协议（后面跟场景 ID 或简称时：直接打开该场景，准备播放）</translation>
    </message>
    <message>
        <source>with --guide: the scenario to open (G01 to G16, or its slug)</source>
        <translation>与 --guide 一起使用：要打开的场景（G01 到 G16，或其简称）</translation>
    </message>
    <message>
        <source>no guided scenario &quot;%1&quot;; they are G01 to G16</source>
        <translation>没有引导演示场景“%1”；场景为 G01 到 G16</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>renew the lease with the watchdog (the default without --lease)</source>
        <translation>由看门狗续期（未指定 --lease 时的默认行为）</translation>
    </message>
    <message>
        <source>watchdog lease in ms, renewed every third of it (default 30000)</source>
        <translation>看门狗租期，单位毫秒，每过三分之一续期一次（默认 30000）</translation>
    </message>
    <message>
        <source>wait up to MS for the lock (default 0: try once; -1: forever)</source>
        <translation>最多等待 MS 毫秒获取锁（默认 0：只尝试一次；-1：一直等待）</translation>
    </message>
    <message>
        <source>hold for MS, then release (default: until SIGINT, SIGTERM or end of input)</source>
        <translation>持有 MS 毫秒后释放（默认：直到 SIGINT、SIGTERM 或输入结束）</translation>
    </message>
    <message>
        <source>force-release only if this owner still holds the lock</source>
        <translation>仅当该持有者仍持有锁时才强制释放</translation>
    </message>
    <message>
        <source>do not ask for confirmation</source>
        <translation>不要求确认</translation>
    </message>
    <message>
        <source>demo: simulated clients (default 6)</source>
        <translation>demo：模拟客户端数量（默认 6）</translation>
    </message>
    <message>
        <source>demo: lock names to contend for (default 4)</source>
        <translation>demo：争用的锁名数量（默认 4）</translation>
    </message>
    <message>
        <source>the lock name (not for demo)</source>
        <translation>锁名（demo 不需要）</translation>
    </message>
    <message>
        <source>no command given; see --help</source>
        <translation>未指定命令；参见 --help</translation>
    </message>
    <message>
        <source>%1 takes exactly one lock name</source>
        <translation>%1 需要且只需要一个锁名</translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;; see --help</source>
        <translation>未知命令“%1”；参见 --help</translation>
    </message>
    <message>
        <source>warning: could not write the audit log %1: %2</source>
        <translation>警告：无法写入审计日志 %1：%2</translation>
    </message>
    <message>
        <source>watch: first switch on the keyspace notifications it needs (CONFIG SET; a write, audited)</source>
        <translation>watch：先开启所需的键空间通知（CONFIG SET；属于写操作，会记入审计日志）</translation>
    </message>
    <message>
        <source>--lease, --wait, --hold and --watchdog-timeout take a number of milliseconds</source>
        <translation>--lease、--wait、--hold 和 --watchdog-timeout 的取值为毫秒数</translation>
    </message>
    <message>
        <source>--lease and --watchdog exclude each other: a lease is either fixed or renewed</source>
        <translation>--lease 与 --watchdog 互斥：租期要么固定，要么续期</translation>
    </message>
    <message>
        <source>lock kind: %1 (default: %2)</source>
        <translation>锁类型：%1（默认：%2）</translation>
    </message>
    <message>
        <source>list, show, watch: a string key is a lock only when its name matches one of these globs and it has a TTL; repeat for several (default: lock:* mutex:* *:lock)</source>
        <translation>list、show、watch：字符串键只有在名称匹配这些通配符之一且带有 TTL 时才算锁；可重复指定多个（默认：lock:* mutex:* *:lock）</translation>
    </message>
    <message>
        <source>list, show, watch: look for no string locks</source>
        <translation>list、show、watch：不查找字符串锁</translation>
    </message>
    <message>
        <source>repair-queue: ms between the two looks that find a waiter nobody listens for dead (default 3000)</source>
        <translation>repair-queue：两次查看之间的毫秒数，两次都无人监听的等待者才被判为已死（默认 3000）</translation>
    </message>
    <message>
        <source>key names that belong to LIBRARY (a library whose keys have no fixed prefix: spring, redis-py, redsync, ...); adds to its default patterns; repeatable</source>
        <translation>属于 LIBRARY 的键名（键没有固定前缀的库：spring、redis-py、redsync 等）；追加到该库的默认模式；可重复</translation>
    </message>
    <message>
        <source>list: only locks of this library (redisson, string, shedlock, ...)</source>
        <translation>list：只列出该库的锁（redisson、string、shedlock 等）</translation>
    </message>
    <message>
        <source>list: one JSON lock object per line</source>
        <translation>list：每行一个 JSON 锁对象</translation>
    </message>
    <message>
        <source>--layout-pattern takes LIBRARY=GLOB with a library whose keys have no fixed prefix, one of: %1 (got &quot;%2&quot;)</source>
        <translation>--layout-pattern 需要 LIBRARY=GLOB，LIBRARY 为键没有固定前缀的库之一：%1（收到 &quot;%2&quot;）</translation>
    </message>
    <message>
        <source>--library takes one of: %1 (got &quot;%2&quot;)</source>
        <translation>--library 需要以下之一：%1（收到 &quot;%2&quot;）</translation>
    </message>
    <message>
        <source>add-permits: how many permits to add (default 1)</source>
        <translation>add-permits：要增加的许可数（默认 1）</translation>
    </message>
    <message>
        <source>release-permit: the id of the permit to give back</source>
        <translation>release-permit：要归还的许可的 id</translation>
    </message>
    <message>
        <source>open-latch: open only while the latch still holds this count</source>
        <translation>open-latch：仅当闭锁仍为此计数时才打开</translation>
    </message>
    <message>
        <source>--interval takes milliseconds (at least 10)</source>
        <translation>--interval 接受毫秒数（至少 10）</translation>
    </message>
    <message>
        <source>watch, stats, serve-metrics: ms between re-scans when the server sends no keyspace events (default 5000); top: ms between redraws (default 2000)</source>
        <translation>watch、stats、serve-metrics：服务器不发送键空间事件时两次重新扫描之间的毫秒数（默认 5000）；top：两次重绘之间的毫秒数（默认 2000）</translation>
    </message>
    <message>
        <source>top, serve-metrics: the N most contended locks (default 20); stats: at most N locks</source>
        <translation>top、serve-metrics：争用最激烈的 N 个锁（默认 20）；stats：最多 N 个锁</translation>
    </message>
    <message>
        <source>serve-metrics: the address to serve /metrics on (default 127.0.0.1:9464; port 0: any free port)</source>
        <translation>serve-metrics：提供 /metrics 的地址（默认 127.0.0.1:9464；端口 0：任一空闲端口）</translation>
    </message>
    <message>
        <source>%1 takes no lock name (use --pattern)</source>
        <translation>%1 不接受锁名（请用 --pattern）</translation>
    </message>
    <message>
        <source>the lock name is given as hex digits (a binary name; list and show print it with \xNN escapes)</source>
        <translation>锁名以十六进制数字给出（二进制名称；list 和 show 以 \xNN 转义形式显示它）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>guide: list the scenarios</source>
        <translation>guide：列出所有场景</translation>
    </message>
    <message>
        <source>guide: the watchdog timeout T every time scales with: fast (3000 ms), normal (6000, the default), real (30000) or MS</source>
        <translation>guide：所有时间都按其缩放的看门狗超时 T：fast（3000 毫秒）、normal（6000，默认）、real（30000）或 MS（毫秒数）</translation>
    </message>
    <message>
        <source>guide: wait for Enter before each step (not inside a live phase)</source>
        <translation>guide：每一步之前等待按下 Enter（实时阶段内不等待）</translation>
    </message>
    <message>
        <source>guide: the Redisson whose unlock effect is played: 4 (default), 3.22, 3.21 or 3.10.5</source>
        <translation>guide：演示哪个 Redisson 版本的解锁效果：4（默认）、3.22、3.21 或 3.10.5</translation>
    </message>
    <message>
        <source>guide: let the demo write guided:* keys on the server given with --url</source>
        <translation>guide：允许演示在 --url 指定的服务器上写入 guided:* 键</translation>
    </message>
    <message>
        <source>every lock whose name matches --pattern (default *)</source>
        <translation>所有名称匹配 --pattern（默认 *）的锁</translation>
    </message>
    <message>
        <source>one lock in full: holders, TTL, waiters, queue, evidence</source>
        <translation>单把锁的全部信息：持有者、TTL、等待者、队列、依据</translation>
    </message>
    <message>
        <source>live events of every lock matching --pattern until interrupted</source>
        <translation>实时显示所有匹配 --pattern 的锁的事件，直到被中断</translation>
    </message>
    <message>
        <source>the most contended locks, redrawn every --interval ms until interrupted</source>
        <translation>争用最激烈的锁，每 --interval 毫秒重绘一次，直到被中断</translation>
    </message>
    <message>
        <source>serve statistics to Prometheus at --listen HOST:PORT (default 127.0.0.1:9464)</source>
        <translation>在 --listen HOST:PORT（默认 127.0.0.1:9464）为 Prometheus 提供统计</translation>
    </message>
    <message>
        <source>acquire, hold, then release cleanly</source>
        <translation>获取、持有，然后干净地释放</translation>
    </message>
    <message>
        <source>release one level on behalf of --owner UUID:TID</source>
        <translation>代表 --owner UUID:TID 释放一层</translation>
    </message>
    <message>
        <source>delete the lock and wake its waiters</source>
        <translation>删除锁并唤醒其等待者</translation>
    </message>
    <message>
        <source>remove a fair lock&apos;s dead waiters (--dry-run: only report them)</source>
        <translation>移除公平锁中失效的等待者（--dry-run：只报告）</translation>
    </message>
    <message>
        <source>give a Redisson semaphore --permits N more free permits (default 1)</source>
        <translation>为 Redisson 信号量增加 --permits N 个空闲许可（默认 1）</translation>
    </message>
    <message>
        <source>give back an expirable semaphore&apos;s permit --permit ID</source>
        <translation>归还可过期信号量的许可 --permit ID</translation>
    </message>
    <message>
        <source>open a Redisson count-down latch: every waiter goes on</source>
        <translation>打开 Redisson 闭锁：所有等待者继续执行</translation>
    </message>
    <message>
        <source>run simulated Redisson clients until interrupted (without --url: on a private
redis-server it starts and stops itself)</source>
        <translation>运行模拟的 Redisson 客户端直到被中断（未指定 --url 时：在自行启动和停止的私有
redis-server 上运行）</translation>
    </message>
    <message>
        <source>play the guided demo: Redisson&apos;s lock protocol step by step, narrated (--list: the
scenarios; without --url on a private redis-server)</source>
        <translation>播放引导演示：逐步讲解 Redisson 的锁协议（--list：列出场景；未指定 --url 时
在私有 redis-server 上运行）</translation>
    </message>
    <message>
        <source>%1 or %2</source>
        <translation>%1 或 %2</translation>
    </message>
    <message>
        <source>Inspect and manage Redisson-style distributed locks in Redis.</source>
        <translation>在 Redis 中查看和管理 Redisson 风格的分布式锁。</translation>
    </message>
    <message>
        <source>Commands:</source>
        <translation>命令：</translation>
    </message>
    <message>
        <source>Usage: %1 %2 [options]</source>
        <translation>用法：%1 %2 [选项]</translation>
    </message>
    <message>
        <source>Options:</source>
        <translation>选项：</translation>
    </message>
    <message>
        <source>Where to connect and how (--url, --profile, --cluster, --sentinel, --ssh, TLS, passwords, --read-only): every command takes the same options, listed by %1 --help.</source>
        <translation>连接到哪里以及如何连接（--url、--profile、--cluster、--sentinel、--ssh、TLS、密码、--read-only）：每个命令都接受相同的选项，见 %1 --help。</translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>high</source>
        <comment>confidence</comment>
        <translation>高</translation>
    </message>
    <message>
        <source>medium</source>
        <comment>confidence</comment>
        <translation>中</translation>
    </message>
    <message>
        <source>low</source>
        <comment>confidence</comment>
        <translation>低</translation>
    </message>
    <message>
        <source>command</source>
        <comment>the usage line&apos;s placeholder for the command</comment>
        <translation>命令</translation>
    </message>
    <message>
        <source>[name]</source>
        <comment>the usage line&apos;s placeholder for the lock name</comment>
        <translation>[名称]</translation>
    </message>
    <message>
        <source>who waits for whom: root blockers first, each with its liveness and what frees it; deadlocks</source>
        <translation>谁在等谁：先列出根阻塞者，各附存活判定和解除办法；以及死锁</translation>
    </message>
    <message>
        <source>MONITOR for --seconds N (default 10, at most 300): which connection sent each owner
id and token, who retries, and what the trace cost the server (needs +monitor)</source>
        <translation>MONITOR 运行 --seconds N 秒（默认 10，最多 300）：每个持有者 id 和令牌由哪个连接发出、
谁在重试，以及这次跟踪给服务器带来的开销（需要 +monitor）</translation>
    </message>
    <message>
        <source>a home-grown lock scheme: GLOB=SOURCE[,ITEM...] where SOURCE is value, json:$.path or regex:PATTERN (named groups), ITEMs host=, pid=, since=, run= (JSON paths), heartbeat=KEY-PATTERN, heartbeat-age=SECONDS; repeatable</source>
        <translation>自研锁方案：GLOB=SOURCE[,ITEM...]，SOURCE 为 value、json:$.path 或 regex:PATTERN（命名分组），ITEM 为 host=、pid=、since=、run=（JSON 路径）、heartbeat=KEY-PATTERN、heartbeat-age=SECONDS；可重复</translation>
    </message>
    <message>
        <source>--owner-template: %1</source>
        <translation>--owner-template：%1</translation>
    </message>
    <message>
        <source>stats: how long to watch; trace: how long to trace (default 10, at most 300); in seconds</source>
        <translation>stats：观察多长时间；trace：跟踪多长时间（默认 10，最多 300）；单位为秒</translation>
    </message>
    <message>
        <source>give a lock with no lease one of --lease MS, or a holder that overruns a longer one
(guarded by the holders shown; never shortens a lease)</source>
        <translation>给没有租期的锁设置 --lease MS 的租期，或给超时运行的持有者一次更长的租期
（以所显示的持有者为保护条件；绝不缩短租期）</translation>
    </message>
    <message>
        <source>lock: explicit lease in ms (no watchdog); expire: the lease to give</source>
        <translation>lock：显式租期（毫秒，无看门狗）；expire：要设置的租期</translation>
    </message>
    <message>
        <source>why: written into the action&apos;s audit record as its reason</source>
        <translation>原因：作为 reason 写入该操作的审计记录</translation>
    </message>
    <message>
        <source>what keeps locks from being taken, the console&apos;s Stuck rules: one line per problem
with since when, its holder and what fixes it (--observe MS: watch first)</source>
        <translation>是什么让锁无法被获取，即控制台的“卡住”规则：每个问题一行，
附起始时间、持有者和解决办法（--observe MS：先观察）</translation>
    </message>
    <message>
        <source>release every hold, read hold, token and fair-queue place of one client, as each
library would, guarded by what is shown (--dry-run: only list them)</source>
        <translation>按各库自己的方式释放某个客户端的全部持有、读持有、令牌和公平队列位置，
以所显示的内容为保护条件（--dry-run：只列出它们）</translation>
    </message>
    <message>
        <source>release-client: release holders judged alive all the same (once you know the client is gone)</source>
        <translation>release-client：即使持有者被判定为存活也照样释放（在你确知该客户端已不在之后）</translation>
    </message>
    <message>
        <source>every write: also POST its audit record as JSON (with a chat &quot;text&quot; line) to this webhook URL; repeatable</source>
        <translation>每次写操作：同时把其审计记录以 JSON（带一行聊天用的 &quot;text&quot;）POST 到此 webhook URL；可重复</translation>
    </message>
    <message>
        <source>every write: also send its audit record to the local syslog</source>
        <translation>每次写操作：同时把其审计记录发送到本机 syslog</translation>
    </message>
    <message>
        <source>the local syslog socket for --syslog (default /dev/log)</source>
        <translation>--syslog 使用的本机 syslog 套接字（默认 /dev/log）</translation>
    </message>
    <message>
        <source>with --yes on a production profile: the lock&apos;s (or client&apos;s) name, typed, as the confirmation</source>
        <translation>与 --yes 一起用于生产配置：键入锁（或客户端）的名称作为确认</translation>
    </message>
    <message>
        <source>list, watch, stats, top, serve-metrics, blockers, stuck, release-client: only lock names matching this glob (default *)</source>
        <translation>list、watch、stats、top、serve-metrics、blockers、stuck、release-client：只处理名称匹配此通配符的锁（默认 *）</translation>
    </message>
    <message>
        <source>the guarded reaper: release the holds a --policy FILE&apos;s rules judge gone (two signals each),
after a report (--dry-run) and its approval (--approve HASH|REPORT-FILE, or on the terminal);
each lock re-checked before its release, quotas and protected names kept</source>
        <translation>受保护的回收器：释放 --policy FILE 的规则判定已失效的持有（每条规则需两个信号），
先出报告（--dry-run），再经批准（--approve HASH|REPORT-FILE，或在终端上确认）；
每个锁释放前都会再次核对，遵守配额与受保护的名称</translation>
    </message>
    <message>
        <source>reap: the policy file (YAML: rules, protect, max_per_run)</source>
        <translation>reap：策略文件（YAML：rules、protect、max_per_run）</translation>
    </message>
    <message>
        <source>serve-metrics: also run the guarded reaper with this policy file (reports always; releases only when the policy is unattended)</source>
        <translation>serve-metrics：同时按此策略文件运行受保护的回收器（总是出报告；仅当策略为 unattended 时才释放）</translation>
    </message>
    <message>
        <source>reap: release what this report approves: its report_sha256, or the file its dry run wrote</source>
        <translation>reap：释放此报告所批准的内容：其 report_sha256，或演练（dry run）写出的文件</translation>
    </message>
    <message>
        <source>show: watch the lock for MS first, so that its renewals are seen (the liveness verdict needs them); stuck: watch the locks for MS first, so that stopped renewals and waiters left on a free lock are seen (default 0: one read); reap: watch at least this long, beyond the policy&apos;s verdict_for</source>
        <translation>show：先观察该锁 MS 毫秒，以便看到续期（存活判断需要它）；stuck：先观察各锁 MS 毫秒，以便看到已停止的续期和滞留在空闲锁上的等待者（默认 0：只读一次）；reap：至少观察这么久，超出策略的 verdict_for 时以此为准</translation>
    </message>
    <message>
        <source>repair-queue, release-client, reap: report what would be done, change nothing</source>
        <translation>repair-queue、release-client、reap：只报告将要做什么，不做任何更改</translation>
    </message>
    <message>
        <source>every event of every lock matching --pattern into a recording (--db FILE, SQLite) until
SIGINT or SIGTERM; appends to an existing one, prunes by --retain and --max-size</source>
        <translation>把匹配 --pattern 的每个锁的每个事件记录到录制文件（--db FILE，SQLite），直到
收到 SIGINT 或 SIGTERM；追加到已有的录制，按 --retain 和 --max-size 清理</translation>
    </message>
    <message>
        <source>one lock&apos;s recorded events, oldest first (--db FILE, --since T, --until T)</source>
        <translation>一个锁已录制的事件，按时间先后（--db FILE、--since T、--until T）</translation>
    </message>
    <message>
        <source>serve-metrics: serve the metrics without recording the events</source>
        <translation>serve-metrics：只提供指标，不录制事件</translation>
    </message>
    <message>
        <source>record, serve-metrics: keep this long (default 7d); the oldest goes while recording</source>
        <translation>record、serve-metrics：保留多久（默认 7d）；录制时最旧的会被删除</translation>
    </message>
    <message>
        <source>record, serve-metrics: keep the recording&apos;s data under this size (default 1G)</source>
        <translation>record、serve-metrics：把录制数据保持在此大小以内（默认 1G）</translation>
    </message>
    <message>
        <source>record, serve-metrics: lock names matching this glob are stored as their hash (repeatable)</source>
        <translation>record、serve-metrics：匹配此通配符的锁名以哈希形式保存（可重复）</translation>
    </message>
    <message>
        <source>every lock and its holders at that moment, from a recording (--db FILE)</source>
        <translation>某一时刻的每个锁及其持有者，取自录制文件（--db FILE）</translation>
    </message>
    <message>
        <source>the story of the hold an error is about (Redisson&apos;s &quot;not locked by current thread&quot;, redsync&apos;s,
redis-py&apos;s, python-redis-lock&apos;s): acquired, renewals and their gaps, how it ended, who came next</source>
        <translation>讲述某个错误所涉及的那次持有（Redisson 的 &quot;not locked by current thread&quot;、redsync、
redis-py、python-redis-lock 的错误）：何时获取、续期及其间隔、如何结束、下一个持有者是谁</translation>
    </message>
    <message>
        <source>everything one holder did across locks, from a recording (a client id alone: all its threads)</source>
        <translation>某个持有者在各个锁上做过的一切，取自录制文件（只给客户端 id：其所有线程）</translation>
    </message>
    <message>
        <source>a recording&apos;s timeline as JSON lines or CSV on standard output</source>
        <translation>把录制文件的时间线以 JSON 行或 CSV 输出到标准输出</translation>
    </message>
    <message>
        <source>the holder to release for, as UUID:TID; explain: whose hold to tell</source>
        <translation>代为释放的持有者，格式为 UUID:TID；explain：要讲述谁的持有</translation>
    </message>
    <message>
        <source>explain: the lock the error is about (when the message names none)</source>
        <translation>explain：错误所涉及的锁（当消息中没有锁名时）</translation>
    </message>
    <message>
        <source>explain: when the error was seen (ISO 8601 with a zone, or epoch ms; default: the log line&apos;s)</source>
        <translation>explain：错误出现的时间（带时区的 ISO 8601，或纪元毫秒数；默认：日志行自身的时间）</translation>
    </message>
    <message>
        <source>export: jsonl (the default) or csv</source>
        <translation>export：jsonl（默认）或 csv</translation>
    </message>
    <message>
        <source>usage: lockscope-cli %1</source>
        <translation>用法：lockscope-cli %1</translation>
    </message>
    <message>
        <source>watch for --seconds N, then print contention statistics per lock; with --db FILE, those of
a recording&apos;s window (--since T, --until T)</source>
        <translation>观察 --seconds N 秒，然后打印每把锁的争用统计；使用 --db FILE 时，
打印录制文件某一时间窗口（--since T、--until T）的统计</translation>
    </message>
    <message>
        <source>the lease advisor, from a recording: hold times against each lock&apos;s lease, each client&apos;s renewal
rhythm and gaps, its inferred lockWatchdogTimeout, and verdicts (lease too short, a pause, ...)</source>
        <translation>租期顾问，取自录制文件：各锁持有时间与其租期的对比、各客户端的续期节奏
与间隔、推断出的 lockWatchdogTimeout，以及结论（租期太短、一次暂停等）</translation>
    </message>
    <message>
        <source>history, client, export, advise, stats --db: from this moment (ISO 8601 with a zone, or epoch ms)</source>
        <translation>history、client、export、advise、stats --db：从此时刻起（带时区的 ISO 8601，或纪元毫秒数）</translation>
    </message>
    <message>
        <source>history, client, export, advise, stats --db: up to this moment (ISO 8601 with a zone, or epoch ms)</source>
        <translation>history、client、export、advise、stats --db：截至此时刻（带时区的 ISO 8601，或纪元毫秒数）</translation>
    </message>
    <message>
        <source>record, serve-metrics and the questions (history, at, explain, client, export): the recording (an SQLite file, the default is in the data directory; or postgresql://user@host:port/database)</source>
        <translation>record、serve-metrics 以及查询命令（history、at、explain、client、export）：录制位置（SQLite 文件，默认位于数据目录；或 postgresql://user@host:port/database）</translation>
    </message>
</context>
<context>
    <name>Guide</name>
    <message>
        <source>The first acquire: a hash, a field, a lease</source>
        <translation>首次加锁：一个哈希、一个字段、一个租期</translation>
    </message>
    <message>
        <source>A Redisson lock is a hash named like the lock; its one field is the owner, its value the hold count, its TTL the lease; nil means acquired.</source>
        <translation>Redisson 锁是一个与锁同名的哈希：唯一的字段是持有者，字段值是持有计数，TTL 就是租期；返回 nil 表示加锁成功。</translation>
    </message>
    <message>
        <source>Before anyone locks it, the lock does not exist at all: a Redisson lock is nothing but a key named exactly like the lock, created by the first acquire and gone after the last release.</source>
        <translation>在有人加锁之前，这把锁根本不存在：Redisson 锁不过是一个与锁名完全相同的键，由第一次加锁创建，在最后一次释放后消失。</translation>
    </message>
    <message>
        <source>A calls lock(). The acquire script finds no key, so it never asks whose field is there: HINCRBY creates the hash with A&apos;s field at 1, PEXPIRE sets the lease, and the script answers nil, which Java reads as &quot;acquired&quot;.</source>
        <translation>A 调用 lock()。加锁脚本发现键不存在，因此根本不去查看字段归谁：HINCRBY 创建哈希并把 A 的字段设为 1，PEXPIRE 设置租期，脚本返回 nil，Java 将其解读为&quot;已获取&quot;。</translation>
    </message>
    <message>
        <source>Look at the key: a HASH. Its field is the owner, the client&apos;s UUID, a colon and the Java thread id; the value counts how many times that thread holds the lock; the key&apos;s TTL is the lease. With no leaseTime given, the lease is the watchdog timeout, and the watchdog keeps it alive (see the watchdog scenario).</source>
        <translation>看看这个键：它是一个 HASH。字段是持有者，即客户端的 UUID 加一个冒号再加 Java 线程 id；字段值记录该线程持有锁的次数；键的 TTL 就是租期。未指定 leaseTime 时，租期等于看门狗超时，由看门狗让锁保持存活（见看门狗场景）。</translation>
    </message>
    <message>
        <source>A unlocks: the count drops to 0, so the key is deleted and the waiters are told. The release is shown in detail in &quot;Unlock wakes a blocked waiter&quot;.</source>
        <translation>A 解锁：计数降到 0，于是键被删除，等待者收到通知。释放过程的细节见&quot;解锁唤醒阻塞的等待者&quot;。</translation>
    </message>
    <message>
        <source>Reentrancy: the count goes 1, 2, 3, 2, 1, 0</source>
        <translation>可重入：计数依次为 1、2、3、2、1、0</translation>
    </message>
    <message>
        <source>Reentry counts up in the same field and restarts the lease; an unlock that leaves levels restarts it to the lease asked for; only the last unlock deletes the key and publishes.</source>
        <translation>重入在同一个字段上累加计数并重新开始租期；解锁后仍有剩余层数时，租期重置为加锁时请求的租期；只有最后一次解锁才会删除键并发布消息。</translation>
    </message>
    <message>
        <source>The outer method takes the lock with a fixed lease of two thirds of T: with a leaseTime Redisson starts no watchdog, so every change of the TTL below is the script&apos;s own doing.</source>
        <translation>外层方法以 T 的三分之二作为固定租期加锁：指定了 leaseTime，Redisson 就不会启动看门狗，因此下面 TTL 的每一次变化都是脚本自己造成的。</translation>
    </message>
    <message>
        <source>The same thread locks again. The key exists and the field is A&apos;s own, so the count becomes 2 and the TTL starts over at the full lease: it is reset, not extended.</source>
        <translation>同一线程再次加锁。键已存在且字段属于 A 自己，于是计数变为 2，TTL 从完整租期重新开始：是重置，而不是延长。</translation>
    </message>
    <message>
        <source>A third level: three nested methods now hold the lock.</source>
        <translation>第三层：现在三个嵌套的方法都持有这把锁。</translation>
    </message>
    <message>
        <source>The last level: the count reaches 0, the key is deleted and &quot;0&quot; is published on the lock&apos;s channel so that waiters may try. Nobody is listening now, so the message reaches no one.</source>
        <translation>最后一层：计数归 0，键被删除，并在锁的频道上发布 &quot;0&quot;，以便等待者尝试加锁。此时没有人在监听，所以这条消息谁也收不到。</translation>
    </message>
    <message>
        <source>One unlock too many: the owner&apos;s field is gone, the script answers nil, and Java throws IllegalMonitorStateException.</source>
        <translation>多解锁了一次：持有者的字段已不存在，脚本返回 nil，Java 抛出 IllegalMonitorStateException。</translation>
    </message>
    <message>
        <source>Mutual exclusion: the loser gets a number</source>
        <translation>互斥：失败者得到一个数字</translation>
    </message>
    <message>
        <source>The loser&apos;s reply is the holder&apos;s remaining lease and a failed try writes nothing; tryLock() with no wait time never subscribes, so no unlock message reaches it.</source>
        <translation>失败者收到的回复是持有者剩余的租期，失败的尝试不写入任何内容；不带等待时间的 tryLock() 从不订阅，因此收不到任何解锁消息。</translation>
    </message>
    <message>
        <source>A holds the lock, with the watchdog.</source>
        <translation>A 持有锁，由看门狗续期。</translation>
    </message>
    <message>
        <source>B calls tryLock(). The key exists without B&apos;s field, so the script only reads the PTTL and answers it: how long A&apos;s lease still runs. B wrote nothing; Java turns the number into false.</source>
        <translation>B 调用 tryLock()。键存在但没有 B 的字段，因此脚本只读取 PTTL 并将其返回：即 A 的租期还剩多久。B 没有写入任何内容；Java 把这个数字转换为 false。</translation>
    </message>
    <message>
        <source>B tries again, and the number went up: A&apos;s watchdog renewed the lease in between.</source>
        <translation>B 再试一次，数字变大了：A 的看门狗在此期间为租期续了期。</translation>
    </message>
    <message>
        <source>A unlocks and publishes, but nobody hears it: tryLock() without a wait time never subscribes to the lock&apos;s channel.</source>
        <translation>A 解锁并发布消息，但没有人收到：不带等待时间的 tryLock() 从不订阅锁的频道。</translation>
    </message>
    <message>
        <source>B&apos;s next try finds the lock free and takes it.</source>
        <translation>B 下一次尝试时发现锁已空闲，于是获取了它。</translation>
    </message>
    <message>
        <source>B is done.</source>
        <translation>B 完成。</translation>
    </message>
    <message>
        <source>The watchdog renews every T/3</source>
        <translation>看门狗每 T/3 续期一次</translation>
    </message>
    <message>
        <source>Without a leaseTime the lease is T and the client restarts it every T/3, so the lock outlives any lease; one renewal timer per client renews all its locks in one script.</source>
        <translation>不指定 leaseTime 时租期为 T，客户端每 T/3 将其重置一次，因此锁的存活时间可以超过任何单个租期；每个客户端只有一个续期定时器，用一个脚本为它的所有锁续期。</translation>
    </message>
    <message>
        <source>A calls lock() with no leaseTime: the lease is the watchdog timeout T, and A&apos;s client arms its renewal timer for T/3.</source>
        <translation>A 不带 leaseTime 调用 lock()：租期为看门狗超时 T，A 的客户端把续期定时器设为 T/3 后触发。</translation>
    </message>
    <message>
        <source>At T/3 the watchdog checked that A&apos;s field is still there and restarted the lease at T: the TTL jumped back up.</source>
        <translation>到 T/3 时，看门狗确认 A 的字段仍在，并把租期重置为 T：TTL 又跳了回去。</translation>
    </message>
    <message>
        <source>A takes a second lock. Redisson 3.44 and later keep one renewal timer per client, not per lock…</source>
        <translation>A 获取第二把锁。Redisson 3.44 及以后的版本每个客户端只保留一个续期定时器，而不是每把锁一个……</translation>
    </message>
    <message>
        <source>…so the next tick renewed both locks with one script, although the second was taken only a moment before.</source>
        <translation>……所以下一次触发用一个脚本同时为两把锁续期，尽管第二把锁才刚刚获取。</translation>
    </message>
    <message>
        <source>A has now held the lock for one and a half leases, and it is as fresh as at the start. The other side of it: a thread that never finishes keeps its lock for as long as its process lives.</source>
        <translation>A 已经持有锁一个半租期了，锁依然和刚开始时一样新鲜。反过来说：一个永远不结束的线程，只要其进程还活着，就会一直占着锁。</translation>
    </message>
    <message>
        <source>Unlocking the first lock ends its renewals…</source>
        <translation>解锁第一把锁，它的续期随之结束……</translation>
    </message>
    <message>
        <source>…and with the last one released, the client&apos;s renewal timer stops.</source>
        <translation>……最后一把锁也释放后，客户端的续期定时器停止。</translation>
    </message>
    <message>
        <source>Unlock wakes a blocked waiter</source>
        <translation>解锁唤醒阻塞的等待者</translation>
    </message>
    <message>
        <source>A blocked lock() does not poll: it subscribes, tries again, and sleeps until a message or the holder&apos;s TTL; the last unlock deletes the key and publishes, and the waiter takes the lock at once.</source>
        <translation>阻塞的 lock() 并不轮询：它先订阅，再试一次，然后休眠，直到收到消息或持有者的 TTL 到期；最后一次解锁删除键并发布消息，等待者随即获取锁。</translation>
    </message>
    <message>
        <source>A holds the lock.</source>
        <translation>A 持有锁。</translation>
    </message>
    <message>
        <source>B calls lock(): taken, and the script says how long A&apos;s lease still runs.</source>
        <translation>B 调用 lock()：锁已被占用，脚本返回 A 的租期还剩多久。</translation>
    </message>
    <message>
        <source>B subscribes to the lock&apos;s channel, tries once more (A might have left in between), then sleeps until a message or until A&apos;s lease would end, whichever comes first. One client now listens.</source>
        <translation>B 订阅锁的频道，再尝试一次（A 可能在此期间已经释放），然后休眠，直到收到消息或 A 的租期本应结束，以先到者为准。现在有一个客户端在监听。</translation>
    </message>
    <message>
        <source>A unlocks its only level: the script deletes the key and publishes &quot;0&quot; on the channel, and A&apos;s watchdog is cancelled.</source>
        <translation>A 释放它唯一的一层：脚本删除键并在频道上发布 &quot;0&quot;，A 的看门狗被取消。</translation>
    </message>
    <message>
        <source>B&apos;s listener gets the message and releases one permit of its latch: B wakes at once, long before its timer would have run out.</source>
        <translation>B 的监听器收到消息，释放其闩上的一个许可：B 立即醒来，远早于它的定时器到期。</translation>
    </message>
    <message>
        <source>B&apos;s next try finds no key: B owns the lock, starts its watchdog and leaves the channel.</source>
        <translation>B 下一次尝试发现键不存在：B 获得锁，启动看门狗并退订频道。</translation>
    </message>
    <message>
        <source>Expired lease, new owner: the old owner&apos;s unlock is refused</source>
        <translation>租期过期，新持有者接手：旧持有者的解锁被拒绝</translation>
    </message>
    <message>
        <source>An owner whose lease ran out cannot delete the next owner&apos;s lock: its unlock finds no field of its own and changes nothing. Both were in the critical section for a while, though.</source>
        <translation>租期已耗尽的持有者无法删除下一个持有者的锁：它解锁时找不到自己的字段，因此什么也不改变。不过，两者曾有一段时间同时处于临界区。</translation>
    </message>
    <message>
        <source>A locks with a fixed lease of T, so no watchdog keeps it (the article&apos;s 30 s, scaled). A&apos;s work will take longer than that.</source>
        <translation>A 以固定租期 T 加锁，因此没有看门狗为它续期（即文章中的 30 秒，按比例缩放）。A 的工作耗时会比这更长。</translation>
    </message>
    <message>
        <source>A&apos;s lease is over while A still works: Redis deletes the key, and tells nobody. Expiry publishes no message.</source>
        <translation>A 还在工作，租期却已结束：Redis 删除了键，且不通知任何人。过期不会发布消息。</translation>
    </message>
    <message>
        <source>B takes the free lock, legitimately. From here on, A and B both run their critical sections.</source>
        <translation>B 合法地获取了空闲的锁。从此刻起，A 和 B 都在执行各自的临界区。</translation>
    </message>
    <message>
        <source>A finishes and unlocks. The script looks for A&apos;s field, does not find it, and answers nil without touching anything: B&apos;s lock, its TTL and its waiters are intact, and nothing is published. Java throws IllegalMonitorStateException naming A&apos;s client and thread. A plain DEL here would have deleted B&apos;s lock.</source>
        <translation>A 完成工作并解锁。脚本查找 A 的字段，没有找到，于是不做任何改动就返回 nil：B 的锁、它的 TTL 和等待者都完好无损，也没有发布任何消息。Java 抛出 IllegalMonitorStateException，并指明 A 的客户端和线程。如果这里用的是简单的 DEL，就会把 B 的锁删掉。</translation>
    </message>
    <message>
        <source>B is done. What the owner check prevented is the delete, not the overlap: for a while both ran as if each held the lock (see the frozen holder).</source>
        <translation>B 完成。持有者检查阻止的是删除，而不是重叠：有一段时间，两者都以为自己持有锁（见被冻结的持有者场景）。</translation>
    </message>
    <message>
        <source>Unlocking what you don&apos;t hold</source>
        <translation>解锁自己未持有的锁</translation>
    </message>
    <message>
        <source>The owner is a client and a thread: another thread of the same client is refused like another client, and the same thread number in another client is another owner.</source>
        <translation>持有者由客户端和线程共同确定：同一客户端的另一个线程会像其他客户端一样被拒绝，而另一个客户端中相同编号的线程则是另一个持有者。</translation>
    </message>
    <message>
        <source>Thread 1 of client A locks.</source>
        <translation>客户端 A 的线程 1 加锁。</translation>
    </message>
    <message>
        <source>Thread 2 of the same client unlocks. Its field ends in :2, the hash holds :1: refused, and the exception names thread 2.</source>
        <translation>同一客户端的线程 2 解锁。它的字段以 :2 结尾，而哈希中是 :1：被拒绝，异常中指明的是线程 2。</translation>
    </message>
    <message>
        <source>isHeldByCurrentThread() is exactly this HEXISTS of the caller&apos;s field…</source>
        <translation>isHeldByCurrentThread() 正是对调用者字段执行的这个 HEXISTS……</translation>
    </message>
    <message>
        <source>…true for thread 1, false for thread 2; getHoldCount() is the HGET of the same field.</source>
        <translation>……线程 1 得到 true，线程 2 得到 false；getHoldCount() 则是对同一字段的 HGET。</translation>
    </message>
    <message>
        <source>Client C unlocks from its thread 1. The thread number is the same as A&apos;s, but the UUID differs: refused. The UUID tells clients apart, the thread id tells threads apart.</source>
        <translation>客户端 C 从它的线程 1 解锁。线程编号与 A 的相同，但 UUID 不同：被拒绝。UUID 区分客户端，线程 id 区分线程。</translation>
    </message>
    <message>
        <source>The owner unlocks.</source>
        <translation>持有者解锁。</translation>
    </message>
    <message>
        <source>Once more, on a lock that no longer exists: refused as well. Up to Redisson 3.10.5 this answered success and published a wake-up (see the versions scenario).</source>
        <translation>再解锁一次，而锁已不存在：同样被拒绝。在 Redisson 3.10.5 及之前，这会返回成功并发布一条唤醒消息（见版本场景）。</translation>
    </message>
    <message>
        <source>An unlock retried safely: the unlock latch and request id</source>
        <translation>安全地重试解锁：解锁闩与请求 id</translation>
    </message>
    <message>
        <source>Since 3.24 an unlock stores its result under its request id, so a retry answers the same instead of releasing a second level; without the latch a retried unlock releases one level too many.</source>
        <translation>从 3.24 起，解锁会以请求 id 保存其结果，因此重试时返回相同的结果，而不会再释放一层；没有解锁闩时，重试的解锁会多释放一层。</translation>
    </message>
    <message>
        <source>A holds guided:myLock two levels deep…</source>
        <translation>A 持有 guided:myLock，重入两层……</translation>
    </message>
    <message>
        <source>…and guided:v321 too, which will be released the way Redisson 3.21 did it.</source>
        <translation>……还持有 guided:v321，它将按 Redisson 3.21 的方式释放。</translation>
    </message>
    <message>
        <source>A unlocks one level (4.x). The script runs and stores its answer, 0, in the latch key named after this request, but the reply is lost on the way: the client cannot tell whether it ran.</source>
        <translation>A 释放一层（4.x）。脚本执行，并把结果 0 存入以本次请求命名的闩键中，但回复在途中丢失：客户端无法判断脚本是否执行过。</translation>
    </message>
    <message>
        <source>The same mishap with the 3.21 unlock, which has no latch…</source>
        <translation>同样的意外发生在没有闩的 3.21 解锁上……</translation>
    </message>
    <message>
        <source>…and the retry releases the outer level too: A&apos;s outer code still believes it holds the lock, a waiter may enter now, and A&apos;s own last unlock will throw.</source>
        <translation>……重试把外层也释放了：A 的外层代码仍以为自己持有锁，此时等待者可能进入，而 A 自己的最后一次解锁将会抛出异常。</translation>
    </message>
    <message>
        <source>The normal path: the latch lives only for the moment between the script and the client&apos;s DEL.</source>
        <translation>正常路径：闩只存在于脚本执行完到客户端执行 DEL 之间的那一瞬间。</translation>
    </message>
    <message>
        <source>Same call, different Redisson: the unlock across versions</source>
        <translation>同样的调用，不同的 Redisson：各版本中的解锁</translation>
    </message>
    <message>
        <source>Articles describing different Redisson versions disagree for a reason: an unlock after the lease expired succeeds silently and publishes up to 3.10.5, and is refused since 3.10.6.</source>
        <translation>描述不同 Redisson 版本的文章说法不一是有原因的：租期过期后的解锁，在 3.10.5 及之前会静默成功并发布消息，从 3.10.6 起则被拒绝。</translation>
    </message>
    <message>
        <source>A takes three locks with a lease of half of T; each will be unlocked the way one Redisson version did it.</source>
        <translation>A 以 T 的一半为租期获取三把锁；每把锁将分别按某个 Redisson 版本的方式解锁。</translation>
    </message>
    <message>
        <source>The leases ran out and nobody took the locks.</source>
        <translation>租期耗尽，没有人获取这些锁。</translation>
    </message>
    <message>
        <source>3.10.6 to 3.21: the owner&apos;s field is looked for first; it is not there, so nil: IllegalMonitorStateException.</source>
        <translation>3.10.6 到 3.21：先查找持有者的字段；字段不存在，于是返回 nil：IllegalMonitorStateException。</translation>
    </message>
    <message>
        <source>3.24 and later: the latch is looked at first, then the field: refused the same way.</source>
        <translation>3.24 及以后：先查看闩，再查看字段：以同样的方式被拒绝。</translation>
    </message>
    <message>
        <source>Plain DEL is not a lock release</source>
        <translation>简单的 DEL 不等于释放锁</translation>
    </message>
    <message>
        <source>A plain lock released with DEL deletes the next owner&apos;s lock; checking before the DEL does not help unless both are one atomic step; and DEL throws away every level of a reentrant hold.</source>
        <translation>用 DEL 释放的普通锁会删除下一个持有者的锁；在 DEL 之前检查也无济于事，除非检查和删除是一个原子步骤；而且 DEL 会丢弃可重入持有的所有层。</translation>
    </message>
    <message>
        <source>Anti-pattern, part one. A takes a plain string lock that lives T: SET with NX (only if absent) and PX (a lease). Its value is A&apos;s id.</source>
        <translation>反模式，第一部分。A 获取一个存活 T 的普通字符串锁：SET 带 NX（仅当不存在时）和 PX（租期）。它的值是 A 的 id。</translation>
    </message>
    <message>
        <source>A&apos;s work takes longer than the lease. The key expires, and nobody tells A.</source>
        <translation>A 的工作耗时超过了租期。键过期了，但没有人通知 A。</translation>
    </message>
    <message>
        <source>B takes the free lock, legitimately. A and B are now both in the critical section.</source>
        <translation>B 合法地获取了空闲的锁。现在 A 和 B 都处于临界区。</translation>
    </message>
    <message>
        <source>A finishes and releases with DEL. DEL never asks whose the key is: A has just deleted B&apos;s lock.</source>
        <translation>A 完成工作，用 DEL 释放。DEL 从不过问键属于谁：A 刚刚删掉了 B 的锁。</translation>
    </message>
    <message>
        <source>So C gets in too, while B still believes it holds the lock: mutual exclusion is gone.</source>
        <translation>于是 C 也进来了，而 B 仍以为自己持有锁：互斥已不复存在。</translation>
    </message>
    <message>
        <source>Part two starts from a clean key.</source>
        <translation>第二部分从一个干净的键开始。</translation>
    </message>
    <message>
        <source>This time A checks before it deletes: it takes the lock again…</source>
        <translation>这一次 A 在删除前先检查：它再次获取锁……</translation>
    </message>
    <message>
        <source>…and reads the value: still its own, so A goes on to delete. But before the DEL, A is held up for a moment: a garbage collection, a slow network.</source>
        <translation>……并读取值：仍是自己的，于是 A 继续删除。但在 DEL 之前，A 被耽搁了片刻：一次垃圾回收，或是网络变慢。</translation>
    </message>
    <message>
        <source>While A is held up, the lease ends…</source>
        <translation>在 A 被耽搁期间，租期结束了……</translation>
    </message>
    <message>
        <source>…and B takes the lock.</source>
        <translation>……B 获取了锁。</translation>
    </message>
    <message>
        <source>A&apos;s DEL arrives and deletes B&apos;s lock. The check was true when made and false when acted on: check and delete must be one atomic step, which is why Redisson does both in one script (see the mis-delete scenario).</source>
        <translation>A 的 DEL 到达，删除了 B 的锁。检查时条件成立，执行时已不再成立：检查和删除必须是一个原子步骤，这正是 Redisson 在一个脚本中同时完成两者的原因（见误删场景）。</translation>
    </message>
    <message>
        <source>Part three, with a Redisson lock: A enters a first level…</source>
        <translation>第三部分，使用 Redisson 锁：A 进入第一层……</translation>
    </message>
    <message>
        <source>…and four nested ones: five levels, one field, count 5.</source>
        <translation>……再嵌套进入四层：五层，一个字段，计数为 5。</translation>
    </message>
    <message>
        <source>The innermost method &quot;releases&quot; with DEL: all five levels vanish at once, while four outer methods still think they hold the lock. That is what the count in the unlock script is for.</source>
        <translation>最内层方法用 DEL 来&quot;释放&quot;：五层一下子全部消失，而外面的四个方法仍以为自己持有锁。解锁脚本中的计数正是为此而设。</translation>
    </message>
    <message>
        <source>A fixed lease: no watchdog, the TTL runs out</source>
        <translation>固定租期：没有看门狗，TTL 耗尽</translation>
    </message>
    <message>
        <source>lock(leaseTime) starts no watchdog: the TTL drains to 0 and the key expires while its holder still runs, and the expiry publishes nothing.</source>
        <translation>lock(leaseTime) 不启动看门狗：TTL 一路降到 0，键在持有者仍在运行时过期，而且过期不会发布任何消息。</translation>
    </message>
    <message>
        <source>A locks with a leaseTime of two thirds of T. Redisson keeps that lease for the unlock and starts no watchdog.</source>
        <translation>A 以 T 的三分之二作为 leaseTime 加锁。Redisson 会为解锁记下这个租期，并且不启动看门狗。</translation>
    </message>
    <message>
        <source>Nobody renews it: the TTL only goes down, with no jumps (compare the watchdog scenario&apos;s sawtooth).</source>
        <translation>没有人为它续期：TTL 只降不升，没有跳变（对比看门狗场景中的锯齿形）。</translation>
    </message>
    <message>
        <source>The lease is over and the key is gone. An expiry publishes no message: waiters learn of it only from their own timers.</source>
        <translation>租期结束，键消失了。过期不会发布消息：等待者只能通过自己的定时器得知。</translation>
    </message>
    <message>
        <source>A, still working, finds out only now, when its unlock is refused with IllegalMonitorStateException: it ran part of its critical section without a lock.</source>
        <translation>仍在工作的 A 直到现在解锁被拒绝、抛出 IllegalMonitorStateException 时才发现：它有一部分临界区是在没有锁的情况下运行的。</translation>
    </message>
    <message>
        <source>Cancelling the renewal on unlock, and a watchdog that stops by itself</source>
        <translation>解锁时取消续期，以及自行停止的看门狗</translation>
    </message>
    <message>
        <source>A partial unlock keeps the watchdog, the last one stops it; a renewal that finds the field gone drops the lock silently, and the holder learns only when it unlocks.</source>
        <translation>部分解锁会保留看门狗，最后一次解锁才会停止它；续期时若发现字段已不存在，就默默放弃这把锁，持有者要到解锁时才会知道。</translation>
    </message>
    <message>
        <source>A locks with the watchdog: the client&apos;s renewal entry counts thread 1 once.</source>
        <translation>A 带看门狗加锁：客户端的续期条目为线程 1 计数一次。</translation>
    </message>
    <message>
        <source>A enters again: the entry now counts thread 1 twice.</source>
        <translation>A 再次进入：该条目现在为线程 1 计数两次。</translation>
    </message>
    <message>
        <source>The first tick renewed the lease.</source>
        <translation>第一次触发为租期续了期。</translation>
    </message>
    <message>
        <source>One level released: the cancel for thread 1 only lowers the count from 2 to 1, so the watchdog goes on.</source>
        <translation>释放了一层：针对线程 1 的取消只是把计数从 2 降到 1，所以看门狗继续工作。</translation>
    </message>
    <message>
        <source>Still renewed at the next tick.</source>
        <translation>下一次触发时仍然续期。</translation>
    </message>
    <message>
        <source>The last level: the entry is removed and, with no other lock to keep, the client&apos;s timer stops. No renewal is sent after this.</source>
        <translation>最后一层：条目被移除，而且没有其他锁需要维持，客户端的定时器停止。此后不再发送续期。</translation>
    </message>
    <message>
        <source>Part two: A locks again, and its timer starts again.</source>
        <translation>第二部分：A 再次加锁，它的定时器重新启动。</translation>
    </message>
    <message>
        <source>Someone force-releases A&apos;s lock (in LockScope&apos;s console: Lock › Force release). The key is deleted and waiters are told; A is not.</source>
        <translation>有人强制释放了 A 的锁（在 LockScope 控制台中：锁 › 强制释放）。键被删除，等待者收到通知；A 却没有。</translation>
    </message>
    <message>
        <source>A&apos;s next tick finds no field of A&apos;s and answers 0. Redisson drops the lock from its watchdog without a word: no exception, no callback. (LockScope&apos;s own client reports the lock lost at once.)</source>
        <translation>A 的下一次触发找不到 A 的字段，返回 0。Redisson 一声不响地把这把锁从看门狗中移除：没有异常，也没有回调。（LockScope 自己的客户端会立即报告锁已丢失。）</translation>
    </message>
    <message>
        <source>A learns only here, when its unlock throws IllegalMonitorStateException.</source>
        <translation>A 直到此时解锁抛出 IllegalMonitorStateException 才得知。</translation>
    </message>
    <message>
        <source>tryLock(waitTime): the retry loop and its budget</source>
        <translation>tryLock(waitTime)：重试循环及其时间预算</translation>
    </message>
    <message>
        <source>tryLock(wait) spends a budget: it tries, subscribes, and sleeps for the smaller of the holder&apos;s TTL and what is left; a sleep ends by the budget running out, by a message, or by the TTL&apos;s own timer.</source>
        <translation>tryLock(wait) 会消耗一份时间预算：它尝试加锁、订阅，然后休眠，时长取持有者的 TTL 与剩余预算中的较小者；休眠的结束要么因为预算耗尽，要么因为收到消息，要么因为按 TTL 设置的定时器到期。</translation>
    </message>
    <message>
        <source>Run one: A holds the lock with the watchdog.</source>
        <translation>第一轮：A 带看门狗持有锁。</translation>
    </message>
    <message>
        <source>B calls tryLock with a wait time of five sixths of T. The first try fails; budget is left, so B subscribes, waiting for the confirmation at most what is left.</source>
        <translation>B 以 T 的六分之五为等待时间调用 tryLock。第一次尝试失败；预算还有剩余，于是 B 订阅，等待订阅确认的时间最多为剩余的预算。</translation>
    </message>
    <message>
        <source>In the loop B tries again and charges the time it took. A&apos;s TTL is longer than B&apos;s remaining budget, so B sleeps for the budget.</source>
        <translation>在循环中，B 再次尝试，并从预算中扣除所花的时间。A 的 TTL 比 B 剩余的预算长，因此 B 按剩余预算休眠。</translation>
    </message>
    <message>
        <source>A keeps renewing and nothing tells B anything. The budget runs out: tryLock answers false, and B leaves the channel.</source>
        <translation>A 不断续期，而没有任何消息通知 B。预算耗尽：tryLock 返回 false，B 退订频道。</translation>
    </message>
    <message>
        <source>A is done.</source>
        <translation>A 完成。</translation>
    </message>
    <message>
        <source>Run two: the same, until A unlocks early.</source>
        <translation>第二轮：过程相同，直到 A 提前解锁。</translation>
    </message>
    <message>
        <source>A unlocks: the script publishes on the lock&apos;s channel, and B is listening.</source>
        <translation>A 解锁：脚本在锁的频道上发布消息，而 B 正在监听。</translation>
    </message>
    <message>
        <source>B wakes by the message with budget to spare…</source>
        <translation>B 被消息唤醒，预算还有富余……</translation>
    </message>
    <message>
        <source>…tries once more and gets the lock: tryLock answers true. No leaseTime was given, so B&apos;s watchdog starts.</source>
        <translation>……再试一次并获得锁：tryLock 返回 true。由于没有指定 leaseTime，B 的看门狗启动。</translation>
    </message>
    <message>
        <source>Run three: A holds with a fixed lease of half of T.</source>
        <translation>第三轮：A 以 T 的一半为固定租期持有锁。</translation>
    </message>
    <message>
        <source>This time A&apos;s TTL is shorter than B&apos;s budget, so B sleeps only until A&apos;s lease would end.</source>
        <translation>这一次 A 的 TTL 比 B 的预算短，因此 B 只休眠到 A 的租期本应结束的时刻。</translation>
    </message>
    <message>
        <source>A&apos;s lease runs out. An expiry publishes nothing: a waiter that only waited for messages would sleep on.</source>
        <translation>A 的租期耗尽。过期不会发布任何消息：只等消息的等待者会一直睡下去。</translation>
    </message>
    <message>
        <source>B&apos;s own timer was set to exactly that moment: it wakes, tries, and holds the lock. (Woken a millisecond early, it would be told 1 ms and sleep once more.)</source>
        <translation>B 自己的定时器恰好设在那一刻：它醒来、尝试，并持有了锁。（如果早醒一毫秒，它会得到 1 毫秒的回复，然后再睡一次。）</translation>
    </message>
    <message>
        <source>One message wakes one waiter per client</source>
        <translation>一条消息在每个客户端唤醒一个等待者</translation>
    </message>
    <message>
        <source>A client subscribes once per lock however many of its threads wait; a message reaches clients, not threads, and wakes one waiter in each; the woken race and one wins.</source>
        <translation>无论有多少线程在等待，一个客户端对每把锁只订阅一次；消息送达的是客户端而不是线程，并在每个客户端唤醒一个等待者；被唤醒的线程相互竞争，只有一个胜出。</translation>
    </message>
    <message>
        <source>B&apos;s first waiting thread creates its client&apos;s entry for this lock and subscribes: one listener.</source>
        <translation>B 的第一个等待线程为这把锁创建其客户端的订阅条目并订阅：一个监听者。</translation>
    </message>
    <message>
        <source>B&apos;s second thread reuses that entry: no new SUBSCRIBE, still one listener.</source>
        <translation>B 的第二个线程复用该条目：没有新的 SUBSCRIBE，仍然只有一个监听者。</translation>
    </message>
    <message>
        <source>C is another client, with its own subscription: two listeners for three waiting threads.</source>
        <translation>C 是另一个客户端，有自己的订阅：三个等待线程，两个监听者。</translation>
    </message>
    <message>
        <source>A unlocks: one message, delivered to two connections, B&apos;s and C&apos;s, not to three threads.</source>
        <translation>A 解锁：一条消息，送达两个连接（B 的和 C 的），而不是三个线程。</translation>
    </message>
    <message>
        <source>C&apos;s listener releases one permit: C1 wakes.</source>
        <translation>C 的监听器释放一个许可：C1 被唤醒。</translation>
    </message>
    <message>
        <source>B&apos;s listener releases one permit too: B1, its longest waiting thread, wakes…</source>
        <translation>B 的监听器也释放一个许可：等待最久的线程 B1 被唤醒……</translation>
    </message>
    <message>
        <source>…and B2 sleeps on: one permit wakes one thread.</source>
        <translation>……而 B2 继续休眠：一个许可只唤醒一个线程。</translation>
    </message>
    <message>
        <source>B1 and C1 both try. Redis runs one script first: that one holds the lock, the other is told a TTL and sleeps again.</source>
        <translation>B1 和 C1 都去尝试。Redis 先执行其中一个脚本：它拿到锁，另一个得到一个 TTL，再次休眠。</translation>
    </message>
    <message>
        <source>The winner unlocks, and the next message wakes one waiter per client still listening.</source>
        <translation>胜者解锁，下一条消息在每个仍在监听的客户端各唤醒一个等待者。</translation>
    </message>
    <message>
        <source>Every waiter gets its turn, one unlock at a time.</source>
        <translation>每个等待者依次轮到，每次解锁放行一个。</translation>
    </message>
    <message>
        <source>The last one leaves, and with it the last subscription.</source>
        <translation>最后一个等待者离开，最后一个订阅也随之取消。</translation>
    </message>
    <message>
        <source>Crash: the watchdog dies with its process, the key expires within T</source>
        <translation>崩溃：看门狗随进程一同消亡，键在 T 之内过期</translation>
    </message>
    <message>
        <source>Killing the holder closes its connections but releases nothing: the lock lives until its lease runs out, between 2/3 T and T after the crash, nobody publishes, and the waiter is woken by its own timer.</source>
        <translation>杀死持有者会关闭它的连接，却不会释放任何东西：锁一直存在，直到租期耗尽，即崩溃后 2/3 T 到 T 之间；没有人发布消息，等待者是被自己的定时器唤醒的。</translation>
    </message>
    <message>
        <source>A is another program (its pid is shown), with connections of its own in CLIENT LIST. It calls lock(): no leaseTime, so its watchdog keeps the lease.</source>
        <translation>A 是另一个程序（显示了它的 pid），在 CLIENT LIST 中有自己的连接。它调用 lock()：没有指定 leaseTime，因此由它的看门狗维持租期。</translation>
    </message>
    <message>
        <source>B calls lock() and is told how long A&apos;s lease still runs. B subscribes and sleeps until a message or that time.</source>
        <translation>B 调用 lock()，得知 A 的租期还剩多久。B 订阅频道，然后休眠，直到收到消息或这段时间过去。</translation>
    </message>
    <message>
        <source>The teacher kills A with kill -9: no finally block runs, no unlock is sent. Redis closes A&apos;s connections, but the lock is still there: Redis ties no key to a connection.</source>
        <translation>讲解者用 kill -9 杀死 A：finally 块不会执行，也不会发送解锁。Redis 关闭了 A 的连接，但锁仍然存在：Redis 不会把任何键与连接绑定。</translation>
    </message>
    <message>
        <source>B&apos;s timer runs out (the TTL it was told). The watchdog would have renewed the lease by now, but it died with A&apos;s process: the lease only drains. B tries again, is told what is left, and sleeps again.</source>
        <translation>B 的定时器到期（时长就是它得到的 TTL）。要是看门狗还在，此时早已为租期续期，但它已随 A 的进程一同消亡：租期只会不断减少。B 再试一次，得知剩余的时间，又继续休眠。</translation>
    </message>
    <message>
        <source>The lease is over: Redis deletes the key, between 2/3 T and T after the crash (20 to 30 s with the default 30 s). An expiry publishes nothing.</source>
        <translation>租期结束：Redis 删除了键，时间在崩溃后 2/3 T 到 T 之间（按默认的 30 秒计，即 20 到 30 秒）。过期不会发布任何消息。</translation>
    </message>
    <message>
        <source>B&apos;s timer was set to that very moment: B tries, finds no key, and owns the lock. B was never woken by a message. Redisson&apos;s Javadoc says a lock is removed when its client disconnects; what removes it is the TTL.</source>
        <translation>B 的定时器恰好设在这一刻：B 尝试加锁，发现键不存在，于是获得了锁。B 从未被消息唤醒。Redisson 的 Javadoc 说客户端断开连接时锁会被移除；实际上移除它的是 TTL。</translation>
    </message>
    <message>
        <source>B is done. A lock with no TTL at all (someone ran PERSIST) would have kept B waiting for a message forever: a lock must always carry a lease.</source>
        <translation>B 完成。如果锁根本没有 TTL（有人执行了 PERSIST），B 就会永远等待一条消息：锁必须始终带有租期。</translation>
    </message>
    <message>
        <source>The frozen holder: the watchdog can&apos;t save a paused JVM</source>
        <translation>被冻结的持有者：看门狗救不了暂停的 JVM</translation>
    </message>
    <message>
        <source>A paused process renews nothing while its connections stay open; its lease runs out and another client locks; on thaw its renewal answers 0 without a word and it works on as if it held the lock.</source>
        <translation>暂停的进程不会续期，而它的连接仍保持打开；它的租期耗尽，另一个客户端加锁成功；解冻后，它的续期一声不响地返回 0，它却继续工作，仿佛仍持有锁。</translation>
    </message>
    <message>
        <source>A, another program, calls lock(): the watchdog keeps its lease, every third of T.</source>
        <translation>A 是另一个程序，它调用 lock()：看门狗每隔 T 的三分之一为它续期一次。</translation>
    </message>
    <message>
        <source>B calls lock(), subscribes and sleeps until a message or A&apos;s TTL.</source>
        <translation>B 调用 lock()，订阅频道，然后休眠，直到收到消息或 A 的 TTL 到期。</translation>
    </message>
    <message>
        <source>The teacher freezes A with SIGSTOP, as a long garbage-collection pause or a suspended VM would. Unlike a crash, A&apos;s connections stay open and listed: Redis sees nothing wrong.</source>
        <translation>讲解者用 SIGSTOP 冻结 A，效果如同一次漫长的垃圾回收停顿或一台被挂起的虚拟机。与崩溃不同，A 的连接仍然打开，也仍在列表中：Redis 看不出任何异常。</translation>
    </message>
    <message>
        <source>No renewal comes from a frozen process: the lease runs out and the key expires. Nobody publishes.</source>
        <translation>被冻结的进程不会发出续期：租期耗尽，键过期。没有人发布消息。</translation>
    </message>
    <message>
        <source>B, woken by its timer, takes the lock. B owns it now.</source>
        <translation>B 被自己的定时器唤醒，获取了锁。现在锁归 B 所有。</translation>
    </message>
    <message>
        <source>The teacher thaws A with SIGCONT. A&apos;s code goes on from where it stopped, inside its critical section, believing it holds the lock.</source>
        <translation>讲解者用 SIGCONT 解冻 A。A 的代码从停下的地方继续执行，仍处在临界区内，并以为自己持有锁。</translation>
    </message>
    <message>
        <source>A&apos;s overdue watchdog tick runs at once: the renewal finds no field of A&apos;s and answers 0, and Redisson drops the lock from its watchdog without telling A&apos;s code. A and B are now both in their critical sections: two owners at once.</source>
        <translation>A 的看门狗那次迟到的触发立即执行：续期找不到 A 的字段，返回 0，Redisson 便把这把锁从看门狗中移除，却不告诉 A 的代码。现在 A 和 B 都处于各自的临界区：同时有两个持有者。</translation>
    </message>
    <message>
        <source>A finishes and unlocks: refused with IllegalMonitorStateException, and B&apos;s lock is untouched. The owner check prevented a mis-delete, not the overlap: a resource that must never see two owners checks a fencing token (LockScope&apos;s console shows fenced locks).</source>
        <translation>A 完成工作并解锁：被拒绝，抛出 IllegalMonitorStateException，B 的锁完好无损。持有者检查防止的是误删，而不是重叠：绝不能同时有两个持有者的资源应当检查防护令牌（LockScope 的控制台会显示防护锁）。</translation>
    </message>
    <message>
        <source>The same unlock again, with the same request id. Redisson itself sends an unlock again only after NoSyncedSlavesException (replicas did not confirm it), and with the same id only since 3.52.0 (before, a retry drew a new one). The script finds the latch and answers what the first run answered, running nothing else: the count stays 1. Then the client deletes the latch (had it died, the latch would expire on its own).</source>
        <translation>用相同的请求 id 再次发送同一个解锁。Redisson 自己只在 NoSyncedSlavesException（副本没有确认）之后才会重发解锁，而且从 3.52.0 起才沿用同一个 id（之前每次重试都会换一个新 id）。脚本找到闩，返回第一次执行的结果，其余什么也不执行：计数保持为 1。随后客户端删除闩（假如客户端已经挂掉，闩也会自行过期）。</translation>
    </message>
    <message>
        <source>Redisson up to 3.10.5: the script sees no key, publishes the unlock message anyway and answers 1. unlock() succeeds silently. Nobody listens here; a waiter would have been woken for a lock nobody released.</source>
        <translation>Redisson 3.10.5 及之前：脚本发现键不存在，仍然发布解锁消息并返回 1。unlock() 静默成功。这里没有人在监听；如果有等待者，它会为一把无人释放的锁而被唤醒。</translation>
    </message>
    <message>
        <source>The innermost method ran long and a third of T was left. Its unlock leaves two levels, so the script answers 0, publishes nothing and restarts the TTL at the lease A asked for (ARGV[2]), not at 30 s: the outer levels are not left with a lease about to end. An unlock through another RLock object than the lock&apos;s would restart it at 30 s: the lease is remembered by the object.</source>
        <translation>最内层方法运行了很久，TTL 只剩 T 的三分之一。它解锁后还剩两层，因此脚本返回 0，不发布任何消息，并把 TTL 重置为 A 请求的租期（ARGV[2]），而不是 30 秒：外层不会只剩一个即将到期的租期。若解锁时用的 RLock 对象与加锁时不是同一个，租期会重置为 30 秒：租期是由对象记住的。</translation>
    </message>
    <message>
        <source>Two levels to one: again 0, and the lease starts over. Redisson 3.19.2 to 3.27.1 forgot A&apos;s lease after the first unlock: there this one restarts the TTL at 30 s.</source>
        <translation>从两层降到一层：再次返回 0，租期重新开始。Redisson 3.19.2 至 3.27.1 在第一次解锁后就忘记了 A 的租期：在这些版本中，这一次会把 TTL 重置为 30 秒。</translation>
    </message>
</context>
<context>
    <name>LockScope</name>
    <message>
        <source>TLS is not available: Qt found no TLS backend (is OpenSSL 3 installed?)</source>
        <translation>TLS 不可用：Qt 找不到 TLS 后端（是否已安装 OpenSSL 3？）</translation>
    </message>
    <message>
        <source>no CA certificate could be read from %1</source>
        <translation>无法从 %1 读取 CA 证书</translation>
    </message>
    <message>
        <source>a client certificate needs both --tls-cert and --tls-key</source>
        <translation>客户端证书需要同时指定 --tls-cert 和 --tls-key</translation>
    </message>
    <message>
        <source>no certificate could be read from %1</source>
        <translation>无法从 %1 读取证书</translation>
    </message>
    <message>
        <source>cannot read the key file %1: %2</source>
        <translation>无法读取密钥文件 %1：%2</translation>
    </message>
    <message>
        <source>%1 holds no unencrypted PEM private key</source>
        <translation>%1 中没有未加密的 PEM 私钥</translation>
    </message>
    <message>
        <source>SSH %1: the server sent no host key: %2</source>
        <translation>SSH %1：服务器没有发送主机密钥：%2</translation>
    </message>
    <message>
        <source>SSH %1: the host key has CHANGED: %2 now offers %3 key %4, which is not the key %5 holds for it. Refused: this is what an attacker in the middle looks like. If the server was really given a new key, remove the old one (ssh-keygen -R HOST -f FILE) and connect again to confirm the new one.</source>
        <translation>SSH %1：主机密钥已更改：%2 现在提供的 %3 密钥 %4 与 %5 中记录的不同。已拒绝：中间人攻击正是这种表现。如果服务器确实换了新密钥，请删除旧密钥（ssh-keygen -R HOST -f FILE），再重新连接以确认新密钥。</translation>
    </message>
    <message>
        <source>SSH %1: the host key %2 is not the one that was accepted (%3); refused</source>
        <translation>SSH %1：主机密钥 %2 不是已接受的那个（%3）；已拒绝</translation>
    </message>
    <message>
        <source>SSH %1: the host key is not known: %2 key %3 is not in %4. Check the fingerprint with the server&apos;s administrator, then accept it.</source>
        <translation>SSH %1：主机密钥未知：%2 密钥 %3 不在 %4 中。请先与服务器管理员核对指纹，再接受它。</translation>
    </message>
    <message>
        <source>SSH %1: cannot check the host key against %2: %3</source>
        <translation>SSH %1：无法按 %2 核对主机密钥：%3</translation>
    </message>
    <message>
        <source>the sentinels&apos; own password is not kept: LockScope asks sentinels without one</source>
        <translation>未保留 Sentinel 自身的密码：LockScope 不带密码访问 Sentinel</translation>
    </message>
    <message>
        <source>the SSH key&apos;s passphrase is not kept: load the key into the SSH agent</source>
        <translation>未保留 SSH 密钥的口令：请把该密钥加载到 SSH 代理中</translation>
    </message>
    <message>
        <source>not an Another Redis Desktop Manager export (base64 of JSON)</source>
        <translation>不是 Another Redis Desktop Manager 的导出文件（JSON 的 base64）</translation>
    </message>
    <message>
        <source>an entry that is not a connection</source>
        <translation>一个不是连接的条目</translation>
    </message>
    <message>
        <source>%1: no host or port</source>
        <translation>%1：没有主机或端口</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <source>TLS certificate errors were ignored there; LockScope checks the certificate</source>
        <translation>原程序忽略了 TLS 证书错误；LockScope 会校验证书</translation>
    </message>
    <message>
        <source>the SSH password was asked for each time there: enter it in the connection dialog</source>
        <translation>原程序每次都询问 SSH 密码：请在连接对话框中输入</translation>
    </message>
    <message>
        <source>not RESP.app&apos;s connections.json (a JSON array): %1</source>
        <translation>不是 RESP.app 的 connections.json（JSON 数组）：%1</translation>
    </message>
    <message>
        <source>%1: a Unix socket (%2) cannot be reached from here</source>
        <translation>%1：无法从这里访问 Unix 套接字（%2）</translation>
    </message>
    <message>
        <source>TLS certificate errors were allowed there; LockScope checks the certificate</source>
        <translation>原程序允许 TLS 证书错误；LockScope 会校验证书</translation>
    </message>
    <message>
        <source>not Tiny RDM&apos;s connections.yaml (a YAML list of connections)</source>
        <translation>不是 Tiny RDM 的 connections.yaml（连接的 YAML 列表）</translation>
    </message>
    <message>
        <source>not readable YAML: %1</source>
        <translation>无法读取的 YAML：%1</translation>
    </message>
    <message>
        <source>not a readable zip file: %1</source>
        <translation>无法读取的 zip 文件：%1</translation>
    </message>
    <message>
        <source>the zip holds no %1</source>
        <translation>zip 中没有 %1</translation>
    </message>
    <message>
        <source>cannot read %1 from the zip</source>
        <translation>无法从 zip 中读取 %1</translation>
    </message>
    <message>
        <source>not a connections file of RESP.app, Another Redis Desktop Manager or Tiny RDM, nor a list of redis:// URLs</source>
        <translation>既不是 RESP.app、Another Redis Desktop Manager 或 Tiny RDM 的连接文件，也不是 redis:// URL 列表</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is too large to be a list of connections</source>
        <translation>%1 太大，不可能是连接列表</translation>
    </message>
    <message>
        <source>Nothing imported: %1</source>
        <translation>未导入任何内容：%1</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n profile(s) from %1.</source>
        <translation>
            <numerusform>已从 %1 导入 %n 个配置。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n password(s) went to the system keychain.</source>
        <translation>
            <numerusform>%n 个密码已存入系统钥匙串。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n password(s) were not kept: no keychain answers here, so they are asked for when connecting.</source>
        <translation>
            <numerusform>%n 个密码未保留：这里没有可用的钥匙串，连接时会再询问。</numerusform>
        </translation>
    </message>
    <message>
        <source>skipped %1</source>
        <translation>已跳过 %1</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>%1 of the queue</source>
        <translation>队列的%1</translation>
    </message>
    <message>
        <source>head</source>
        <translation>队首</translation>
    </message>
    <message>
        <source>place %1</source>
        <translation>第 %1 位</translation>
    </message>
    <message numerus="yes">
        <source>queued: %1 (%n waiting)</source>
        <translation>
            <numerusform>排队中：%1（%n 个在等）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>retried %n time(s), %1/s, from %2 (traced)</source>
        <translation>
            <numerusform>重试了 %n 次，每秒 %1 次，来自 %2（跟踪所见）</numerusform>
        </translation>
    </message>
    <message>
        <source>lockscope-cli repair-queue %1 (its deadline passed: every fair acquire waits behind it)</source>
        <translation>lockscope-cli repair-queue %1（其截止时间已过：所有公平获取都排在它后面）</translation>
    </message>
    <message>
        <source>lockscope-cli force-release %1 (its holder is likely dead)</source>
        <translation>lockscope-cli force-release %1（其持有者很可能已死）</translation>
    </message>
    <message>
        <source>ask its owner: it is alive, and a release would let another client in beside it</source>
        <translation>去问它的主人：它还活着，释放会让另一个客户端与它同时进入</translation>
    </message>
    <message>
        <source>wait for its lease (%1 left), or find out whether it lives: show --observe</source>
        <translation>等待其租期结束（还剩 %1），或查明它是否还活着：show --observe</translation>
    </message>
    <message>
        <source>find out whether it lives (show --observe, trace); it never expires by itself</source>
        <translation>查明它是否还活着（show --observe、trace）；它自己永远不会过期</translation>
    </message>
    <message>
        <source>one read only: renewals were not watched (watch it for a while: show --observe MS)</source>
        <translation>只读了一次：没有观察续期（观察一段时间：show --observe MS）</translation>
    </message>
    <message>
        <source>renewals stopped</source>
        <translation>续期已停止</translation>
    </message>
    <message numerus="yes">
        <source>renewals stopped: the last was %1 ago, %2 periods of %3 overdue (%n renewal(s) seen)</source>
        <translation>
            <numerusform>续期已停止：最近一次在 %1 前，已逾期 %2 个 %3 的周期（见到 %n 次续期）</numerusform>
        </translation>
    </message>
    <message>
        <source>renewing</source>
        <translation>正在续期</translation>
    </message>
    <message numerus="yes">
        <source>renewed %1 ago, every %2 (%n renewal(s) seen)</source>
        <translation>
            <numerusform>%1 前续期，每 %2 一次（见到 %n 次续期）</numerusform>
        </translation>
    </message>
    <message>
        <source>renewed once, %1 ago; the period is not known yet</source>
        <translation>续期过一次，在 %1 前；周期尚不可知</translation>
    </message>
    <message>
        <source>no lease: the key never expires, and nothing renews it</source>
        <translation>没有租期：该键永不过期，也没有谁为它续期</translation>
    </message>
    <message>
        <source>fixed lease: nobody renewed it in %1 watched; it ends by itself in %2</source>
        <translation>固定租期：观察的 %1 内无人续期；它将在 %2 后自行结束</translation>
    </message>
    <message>
        <source>no renewal seen yet in %1 watched</source>
        <translation>观察的 %1 内尚未见到续期</translation>
    </message>
    <message>
        <source>its connection is not known (a trace would name it: lockscope-cli trace)</source>
        <translation>不知道它的连接（跟踪可以找出：lockscope-cli trace）</translation>
    </message>
    <message>
        <source>its connection %1 is known, but no CLIENT LIST has been read</source>
        <translation>已知它的连接 %1，但尚未读取 CLIENT LIST</translation>
    </message>
    <message>
        <source>its connection %1 is still open (CLIENT LIST at %2)</source>
        <translation>它的连接 %1 仍然打开（%2 的 CLIENT LIST）</translation>
    </message>
    <message>
        <source>its connection closed</source>
        <translation>它的连接已关闭</translation>
    </message>
    <message>
        <source>its connection %1 closed: not in CLIENT LIST since %2</source>
        <translation>它的连接 %1 已关闭：自 %2 起不在 CLIENT LIST 中</translation>
    </message>
    <message>
        <source>its process runs</source>
        <translation>它的进程在运行</translation>
    </message>
    <message>
        <source>process %1 on this host (%2) is running</source>
        <translation>本机（%2）上的进程 %1 正在运行</translation>
    </message>
    <message>
        <source>its process is gone</source>
        <translation>它的进程已不在</translation>
    </message>
    <message>
        <source>process %1 on this host (%2) is gone</source>
        <translation>本机（%2）上的进程 %1 已不在</translation>
    </message>
    <message>
        <source>heartbeat fresh</source>
        <translation>心跳新鲜</translation>
    </message>
    <message>
        <source>its heartbeat %1 was written %2 ago</source>
        <translation>它的心跳 %1 在 %2 前写入</translation>
    </message>
    <message>
        <source>its heartbeat %1 is there, kept alive by its TTL</source>
        <translation>它的心跳 %1 存在，靠 TTL 保持</translation>
    </message>
    <message>
        <source>heartbeat stale</source>
        <translation>心跳陈旧</translation>
    </message>
    <message>
        <source>its heartbeat %1 is stale: last written %2 ago</source>
        <translation>它的心跳 %1 已陈旧：最后写入在 %2 前</translation>
    </message>
    <message>
        <source>heartbeat gone</source>
        <translation>心跳消失</translation>
    </message>
    <message>
        <source>its heartbeat %1 is gone</source>
        <translation>它的心跳 %1 已消失</translation>
    </message>
    <message numerus="yes">
        <source>held %1%2, %3× the lock&apos;s usual hold (p95 %4 over %n hold(s)): a hung thread keeps its lock as long as its watchdog runs</source>
        <translation>
            <numerusform>已持有%1 %2，是该锁通常持有时长的 %3 倍（%n 次持有的 p95 为 %4）：卡住的线程只要看门狗在运行就一直持有锁</numerusform>
        </translation>
    </message>
    <message>
        <source>at least </source>
        <translation>至少</translation>
    </message>
    <message>
        <source>orphan renewal: its owner sent its unlock at %1, yet the hold stays and is still renewed (the unlock failed; the watchdog outlived it: redisson #7272)</source>
        <translation>孤儿续期：它的主人在 %1 发出了解锁，但持有仍在且仍被续期（解锁失败；看门狗比它活得更久：redisson #7272）</translation>
    </message>
    <message>
        <source>likely dead (%1)</source>
        <translation>很可能已死（%1）</translation>
    </message>
    <message>
        <source>alive (%1)</source>
        <translation>存活（%1）</translation>
    </message>
    <message>
        <source>alive (%1; but %2)</source>
        <translation>存活（%1；但%2）</translation>
    </message>
    <message>
        <source>unknown: one signal only (%1)</source>
        <translation>未知：只有一个信号（%1）</translation>
    </message>
    <message>
        <source>unknown: nothing seen says either way</source>
        <translation>未知：所见无法判断</translation>
    </message>
    <message>
        <source> · orphan renewal</source>
        <translation> · 孤儿续期</translation>
    </message>
    <message>
        <source> · held %1× its usual time</source>
        <translation> · 持有时长是平常的 %1 倍</translation>
    </message>
    <message>
        <source>alive</source>
        <translation>存活</translation>
    </message>
    <message>
        <source>likely dead</source>
        <translation>很可能已死</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>expected a single value</source>
        <translation>应为单个值</translation>
    </message>
    <message>
        <source>expected a value or a list of values</source>
        <translation>应为一个值或一组值</translation>
    </message>
    <message>
        <source>an empty value</source>
        <translation>值为空</translation>
    </message>
    <message>
        <source>expected true or false, not %1</source>
        <translation>应为 true 或 false，而不是 %1</translation>
    </message>
    <message>
        <source>%1 is not a duration (90s, 5m, 2h, 1d, 250ms)</source>
        <translation>%1 不是时长（90s、5m、2h、1d、250ms）</translation>
    </message>
    <message>
        <source>expected a number of locks (0 to 100000)</source>
        <translation>应为锁的数量（0 到 100000）</translation>
    </message>
    <message>
        <source>unknown key %1 (known: %2)</source>
        <translation>未知的键 %1（已知：%2）</translation>
    </message>
    <message>
        <source>rule %1</source>
        <translation>规则 %1</translation>
    </message>
    <message>
        <source>a rule is a map of keys (pattern, kind, min_age, …)</source>
        <translation>规则是由键组成的映射（pattern、kind、min_age 等）</translation>
    </message>
    <message>
        <source>an empty pattern</source>
        <translation>模式为空</translation>
    </message>
    <message>
        <source>unknown library %1 (known: %2)</source>
        <translation>未知的库 %1（已知：%2）</translation>
    </message>
    <message>
        <source>unknown kind %1 (known: %2)</source>
        <translation>未知的类型 %1（已知：%2）</translation>
    </message>
    <message>
        <source>ttl is none (only locks that never expire) or any, not %1</source>
        <translation>ttl 应为 none（只针对永不过期的锁）或 any，而不是 %1</translation>
    </message>
    <message>
        <source>names %1 signal(s) that its holder is gone; a rule needs two of min_age, verdict_for and connection_gone, since one alone cannot tell a slow or paused holder from a dead one</source>
        <translation>只给出了 %1 个表明持有者已失效的信号；规则需要 min_age、verdict_for 和 connection_gone 中的两个，因为单个信号无法区分缓慢或暂停的持有者与已失效的持有者</translation>
    </message>
    <message>
        <source>min_age %1: how long it has been held is not known</source>
        <translation>min_age %1：不知道已持有多久</translation>
    </message>
    <message>
        <source>min_age %1: held only %2</source>
        <translation>min_age %1：仅持有了 %2</translation>
    </message>
    <message>
        <source>held at least %1 (min_age %2)</source>
        <translation>已持有至少 %1（min_age %2）</translation>
    </message>
    <message>
        <source>held %1 (min_age %2)</source>
        <translation>已持有 %1（min_age %2）</translation>
    </message>
    <message>
        <source>verdict_for %1: not judged likely dead</source>
        <translation>verdict_for %1：未被判定为可能已失效</translation>
    </message>
    <message>
        <source>verdict_for %1: likely dead for only %2</source>
        <translation>verdict_for %1：被判定可能已失效仅 %2</translation>
    </message>
    <message>
        <source>likely dead for %1 without a break (verdict_for %2)</source>
        <translation>连续 %1 被判定可能已失效（verdict_for %2）</translation>
    </message>
    <message>
        <source>connection_gone: its connection is still there</source>
        <translation>connection_gone：其连接仍在</translation>
    </message>
    <message>
        <source>connection_gone: no connection is known to speak for it (trace its clients, or have them name their connections)</source>
        <translation>connection_gone：不知道哪个连接代表它（请跟踪其客户端，或让客户端为连接命名）</translation>
    </message>
    <message>
        <source>every connection known to speak for it has left</source>
        <translation>已知代表它的连接都已断开</translation>
    </message>
</context>
<context>
    <name>LockScope::AcquireDialog</name>
    <message>
        <source>Acquire a lock</source>
        <translation>获取锁</translation>
    </message>
    <message>
        <source>e.g. orders:42</source>
        <translation>例如 orders:42</translation>
    </message>
    <message>
        <source>Reentrant</source>
        <translation>可重入</translation>
    </message>
    <message>
        <source>Fenced</source>
        <translation>栅栏</translation>
    </message>
    <message>
        <source>Fair</source>
        <translation>公平</translation>
    </message>
    <message>
        <source>Read (shared)</source>
        <translation>读（共享）</translation>
    </message>
    <message>
        <source>Write (exclusive)</source>
        <translation>写（独占）</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>try once</source>
        <translation>只尝试一次</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <source>Fixed &amp;lease:</source>
        <translation>固定租期(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Wait up to:</source>
        <translation>最多等待(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Acquire</source>
        <translation>获取(&amp;A)</translation>
    </message>
    <message>
        <source>String (SET NX PX)</source>
        <translation>字符串（SET NX PX）</translation>
    </message>
    <message>
        <source>The classic single-key lock: SET name token NX PX lease, released by compare-and-delete. Not reentrant, and without a wake-up channel: a wait retries every 100 ms.</source>
        <translation>经典的单键锁：SET 名称 令牌 NX PX 租期，通过比较后删除来释放。不可重入，也没有唤醒频道：等待时每 100 毫秒重试一次。</translation>
    </message>
    <message>
        <source>Set to %1 because %2 is held as one: taking it as another kind is refused.</source>
        <translation>已设为“%1”，因为 %2 正以这种类型被持有：以其他类型获取会被拒绝。</translation>
    </message>
    <message>
        <source>Renew with the watchdog</source>
        <translation>由看门狗续租</translation>
    </message>
    <message>
        <source>The lease the watchdog keeps renewing, every third of it</source>
        <translation>看门狗持续续租的租约，每过三分之一续一次</translation>
    </message>
    <message>
        <source>Watchdo&amp;g lease:</source>
        <translation>看门狗租约(&amp;G)：</translation>
    </message>
</context>
<context>
    <name>LockScope::AppSession</name>
    <message>
        <source>Demo clients on your server: they take, renew and release locks named demo:*.</source>
        <translation>演示客户端运行在您的服务器上：它们获取、续期并释放名为 demo:* 的锁。</translation>
    </message>
    <message>
        <source>private redis-server</source>
        <translation>私有 redis-server</translation>
    </message>
    <message>
        <source>Starting a private redis-server on a free loopback port…</source>
        <translation>正在空闲的回环端口上启动私有 redis-server…</translation>
    </message>
    <message>
        <source>The private redis-server did not start. Is redis-server installed and on PATH?</source>
        <translation>私有 redis-server 未能启动。redis-server 是否已安装并位于 PATH 中？</translation>
    </message>
    <message>
        <source>Private demo server (redis-server pid %1, data in %2): it and the simulated clients stop when this window closes.</source>
        <translation>私有演示服务器（redis-server 进程号 %1，数据目录 %2）：关闭此窗口时，它与模拟客户端一同停止。</translation>
    </message>
    <message>
        <source>Your Redis server.</source>
        <translation>您的 Redis 服务器。</translation>
    </message>
    <message>
        <source>%1 simulated Redisson clients on %2 locks: watchdog holders, fixed leases, waiters, reentrant holds, readers and a writer on demo:report, a fair queue on demo:payroll, and one holder that crashes and lets its lease run out. Beside them a mixed fleet: a ShedLock job on %3 with its cool-down, two python-redis-lock workers on %4, and three workers sharing the two permits of the Redisson semaphore %5.</source>
        <translation>%1 个模拟的 Redisson 客户端争用 %2 把锁：看门狗持有者、固定租期持有者、等待者、可重入持有者，demo:report 上的读者与写者，demo:payroll 上的公平队列，以及一个崩溃后任由租期耗尽的持有者。旁边还有一个混合集群：%3 上带冷却期的 ShedLock 任务，%4 上的两个 python-redis-lock 工作者，以及共享 Redisson 信号量 %5 两个许可的三个工作者。</translation>
    </message>
    <message>
        <source>SSH host key: %1</source>
        <translation>SSH 主机密钥：%1</translation>
    </message>
    <message>
        <source>(the URL given)</source>
        <translation>（给定的 URL）</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>bad --url: %1</source>
        <translation>--url 无效：%1</translation>
    </message>
    <message>
        <source>Correct the URL and start again, or choose File › Connect…</source>
        <translation>请更正 URL 后重新启动，或选择 文件 › 连接…</translation>
    </message>
    <message>
        <source>The table shows every lock on this server.</source>
        <translation>表中显示此服务器上的所有锁。</translation>
    </message>
    <message>
        <source>The table shows the locks on this server whose names match %1.</source>
        <translation>表中显示此服务器上名称匹配 %1 的锁。</translation>
    </message>
    <message>
        <source>Read-only: this console writes nothing to it.</source>
        <translation>只读：此控制台不会向其写入任何内容。</translation>
    </message>
    <message>
        <source>The Lock menu&apos;s actions write to it, and each is recorded in the audit log.</source>
        <translation>“锁”菜单中的操作会写入该服务器，且每次都记入审计日志。</translation>
    </message>
</context>
<context>
    <name>LockScope::AuditLogView</name>
    <message>
        <source>Audit log</source>
        <translation>审计日志</translation>
    </message>
    <message>
        <source>Audit records</source>
        <translation>审计记录</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>By</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) in %1; the newest first.</source>
        <translation>
            <numerusform>%1 中共 %n 条记录；最新的在前。</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing audited yet: %1 does not exist (%2).</source>
        <translation>尚无审计记录：%1 不存在（%2）。</translation>
    </message>
</context>
<context>
    <name>LockScope::AuditNotifier</name>
    <message>
        <source>syslog (%1): %2</source>
        <translation>syslog（%1）：%2</translation>
    </message>
    <message>
        <source>webhook %1: %2</source>
        <translation>webhook %1：%2</translation>
    </message>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP 状态 %1</translation>
    </message>
    <message>
        <source>the socket path is too long</source>
        <translation>套接字路径太长</translation>
    </message>
</context>
<context>
    <name>LockScope::BlockersModel</name>
    <message>
        <source>waits for %1</source>
        <translation>等待 %1</translation>
    </message>
    <message>
        <source>heads the queue of %1 (dead)</source>
        <translation>位于 %1 的队首（已死）</translation>
    </message>
    <message>
        <source>holds %1</source>
        <translation>持有 %1</translation>
    </message>
    <message>
        <source>%1 (+%2 unnamed)</source>
        <translation>%1（另有 %2 个未具名）</translation>
    </message>
    <message numerus="yes">
        <source>deadlock: %n owner(s)</source>
        <translation>
            <numerusform>死锁：%n 个持有者</numerusform>
        </translation>
    </message>
    <message>
        <source>each waits for a lock another holds: none of them can go on</source>
        <translation>每个都在等另一个持有的锁：谁也无法继续</translation>
    </message>
    <message>
        <source>waits for %1, held by %2</source>
        <translation>等待 %1，由 %2 持有</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>谁</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Liveness</source>
        <translation>存活</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>What frees it / how it is known</source>
        <translation>如何解除 / 依据</translation>
    </message>
</context>
<context>
    <name>LockScope::BlockersPane</name>
    <message>
        <source>Blockers</source>
        <translation>阻塞</translation>
    </message>
    <message>
        <source>Nobody waits for a lock someone holds.</source>
        <translation>没有人在等别人持有的锁。</translation>
    </message>
    <message numerus="yes">
        <source>%n root blocker(s)</source>
        <translation>
            <numerusform>%n 个根阻塞者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deadlock(s)</source>
        <translation>
            <numerusform>%n 个死锁</numerusform>
        </translation>
    </message>
    <message>
        <source>Partial:</source>
        <translation>不完整：</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli</name>
    <message>
        <source>redis:// or rediss:// URL (default: $LOCKSCOPE_URL, else redis://127.0.0.1:6379/0)</source>
        <translation>redis:// 或 rediss:// URL（默认：$LOCKSCOPE_URL，否则为 redis://127.0.0.1:6379/0）</translation>
    </message>
    <message>
        <source>take the password from this environment variable</source>
        <translation>从此环境变量读取密码</translation>
    </message>
    <message>
        <source>read the password from the first line of standard input</source>
        <translation>从标准输入的第一行读取密码</translation>
    </message>
    <message>
        <source>CA certificate file (PEM)</source>
        <translation>CA 证书文件（PEM）</translation>
    </message>
    <message>
        <source>client certificate file (PEM)</source>
        <translation>客户端证书文件（PEM）</translation>
    </message>
    <message>
        <source>client private key file (PEM)</source>
        <translation>客户端私钥文件（PEM）</translation>
    </message>
    <message>
        <source>name expected in the server certificate</source>
        <translation>服务器证书中应有的名称</translation>
    </message>
    <message>
        <source>do not verify the server certificate</source>
        <translation>不验证服务器证书</translation>
    </message>
    <message>
        <source>refuse every write before it reaches the wire</source>
        <translation>拒绝一切写操作，不发往服务器</translation>
    </message>
    <message>
        <source>connect timeout in ms (default 5000)</source>
        <translation>连接超时，单位毫秒（默认 5000）</translation>
    </message>
    <message>
        <source>machine-readable output</source>
        <translation>机器可读的输出</translation>
    </message>
    <message>
        <source>environment variable %1 is not set</source>
        <translation>环境变量 %1 未设置</translation>
    </message>
    <message>
        <source>treat the URL as a seed of a Redis Cluster (also detected automatically)</source>
        <translation>把 URL 当作 Redis Cluster 的种子节点（也会自动识别）</translation>
    </message>
    <message>
        <source>find the master through these sentinels</source>
        <translation>通过这些 Sentinel 查找主节点</translation>
    </message>
    <message>
        <source>the master&apos;s name in Sentinel (with --sentinel)</source>
        <translation>主节点在 Sentinel 中的名称（与 --sentinel 一起使用）</translation>
    </message>
    <message>
        <source>how releases wake waiters: auto (sharded in a Redis 7 cluster, else plain), plain, sharded or both (for a fleet that mixes them)</source>
        <translation>释放时如何唤醒等待者：auto（Redis 7 集群中用分片，否则用普通）、plain、sharded 或 both（适用于混用两者的服务群）</translation>
    </message>
    <message>
        <source>--sentinel and --master go together</source>
        <translation>--sentinel 与 --master 必须一起使用</translation>
    </message>
    <message>
        <source>--sentinel and --cluster exclude each other</source>
        <translation>--sentinel 与 --cluster 不能同时使用</translation>
    </message>
    <message>
        <source>--publish-mode takes auto, plain, sharded or both, not &quot;%1&quot;</source>
        <translation>--publish-mode 只接受 auto、plain、sharded 或 both，而不是“%1”</translation>
    </message>
    <message>
        <source>in a cluster, scan and read on each master&apos;s replica (list, show, watch); results are as old as the replication lag</source>
        <translation>在集群中改为在每个主节点的副本上扫描和读取（list、show、watch）；结果的新旧程度取决于复制延迟</translation>
    </message>
    <message>
        <source>--%1 needs a rediss:// URL</source>
        <translation>--%1 需要 rediss:// URL</translation>
    </message>
    <message>
        <source>--connect-timeout takes a number of ms from 1, not &quot;%1&quot;</source>
        <translation>--connect-timeout 需要不小于 1 的毫秒数，而不是“%1”</translation>
    </message>
    <message>
        <source>after a lock write on a master with replicas, wait this long for them to have it (WAIT; Redisson&apos;s slavesSyncTimeout; default 1000, 0: never wait)</source>
        <translation>在有副本的主节点上写锁后，最多等待这么久让副本收到（WAIT；即 Redisson 的 slavesSyncTimeout；默认 1000，0：从不等待）</translation>
    </message>
    <message>
        <source>keep an acquire that no replica acknowledged in time (Redisson&apos;s checkLockSyncedSlaves false; by default it is undone and reported)</source>
        <translation>保留没有副本及时确认的获取（即 Redisson 的 checkLockSyncedSlaves 为 false；默认会撤销并报告）</translation>
    </message>
    <message>
        <source>--replica-sync-timeout takes a number of ms from 0, not &quot;%1&quot;</source>
        <translation>--replica-sync-timeout 需要从 0 起的毫秒数，而不是“%1”</translation>
    </message>
    <message>
        <source>reach Redis (and every node or sentinel it names) through this SSH host</source>
        <translation>经由此 SSH 主机访问 Redis（以及它指出的每个节点或 Sentinel）</translation>
    </message>
    <message>
        <source>private key for --ssh (default: the agent, then ~/.ssh/id_*)</source>
        <translation>--ssh 使用的私钥（默认：先用 SSH 代理，再用 ~/.ssh/id_*）</translation>
    </message>
    <message>
        <source>known_hosts file to check the SSH host key against (default: ~/.ssh/known_hosts)</source>
        <translation>用来核对 SSH 主机密钥的 known_hosts 文件（默认：~/.ssh/known_hosts）</translation>
    </message>
    <message>
        <source>take the SSH password from this environment variable</source>
        <translation>从此环境变量读取 SSH 密码</translation>
    </message>
    <message>
        <source>ask for the SSH password on the terminal</source>
        <translation>在终端上询问 SSH 密码</translation>
    </message>
    <message>
        <source>accept an SSH host key that is not in known_hosts if its fingerprint is this one (as shown by the refusal), and remember it</source>
        <translation>若不在 known_hosts 中的 SSH 主机密钥的指纹正是此值（拒绝时会显示），则接受并记住它</translation>
    </message>
    <message>
        <source>The SSH host %1 is not known (not in %2).
Its %3 key fingerprint is %4.
Accept this key and remember it? [y/N] </source>
        <translation>SSH 主机 %1 未知（不在 %2 中）。
其 %3 密钥指纹为 %4。
接受并记住此密钥吗？[y/N] </translation>
    </message>
    <message>
        <source>y</source>
        <translation>是</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>好</translation>
    </message>
    <message>
        <source>--%1 needs --ssh</source>
        <translation>--%1 需要与 --ssh 一起使用</translation>
    </message>
    <message>
        <source>cannot read the SSH key file %1</source>
        <translation>无法读取 SSH 密钥文件 %1</translation>
    </message>
    <message>
        <source>--ssh-accept-host-key takes a fingerprint as SHA256:..., not &quot;%1&quot;</source>
        <translation>--ssh-accept-host-key 需要 SHA256:... 形式的指纹，而不是“%1”</translation>
    </message>
    <message>
        <source>SSH password for %1: </source>
        <translation>%1 的 SSH 密码：</translation>
    </message>
    <message>
        <source>--ssh-ask-password needs a terminal</source>
        <translation>--ssh-ask-password 需要终端</translation>
    </message>
    <message>
        <source>once the fingerprint is checked, accept it with --ssh-accept-host-key %1 (or connect from a terminal to be asked)</source>
        <translation>核对指纹后，可用 --ssh-accept-host-key %1 接受它（或在终端上连接以便被询问）</translation>
    </message>
    <message>
        <source>connect as the console&apos;s saved connection NAME says (its password from the keychain); the options that say where to connect (--url, --tls-*, --cluster, --sentinel, --ssh) then do not apply</source>
        <translation>按控制台中名为 NAME 的已保存连接进行连接（密码取自钥匙串）；此时说明连接位置的选项（--url、--tls-*、--cluster、--sentinel、--ssh）不适用</translation>
    </message>
    <message>
        <source>--%1 and --profile both say where to connect: give one of them</source>
        <translation>--%1 和 --profile 都指定了连接位置：只能给出其中一个</translation>
    </message>
    <message>
        <source>    liveness: %1</source>
        <translation>    存活：%1</translation>
    </message>
    <message>
        <source>      - %1</source>
        <translation>      - %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>, %1</source>
        <translation>，%1</translation>
    </message>
    <message>
        <source>    connection: %1, traced at %2</source>
        <translation>    连接：%1，跟踪于 %2</translation>
    </message>
    <message>
        <source>    connection: %1, by its name</source>
        <translation>    连接：%1，依据其名称</translation>
    </message>
    <message>
        <source>    renewals: last %1 ago, every %2, %3 missed</source>
        <translation>    续期：最近一次在 %1 前，每 %2 一次，错过 %3 次</translation>
    </message>
    <message>
        <source>(period not known yet)</source>
        <translation>（周期尚不可知）</translation>
    </message>
    <message>
        <source>    owner changes seen: %1</source>
        <translation>    见到的持有者更替：%1</translation>
    </message>
    <message>
        <source>  %1:</source>
        <translation>  %1：</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::AdviseCommand</name>
    <message numerus="yes">
        <source>%1  %2/%3  %n hold(s)  p50 %4 s  p95 %5 s  max %6 s  lease %7 s%8</source>
        <translation>
            <numerusform>%1  %2/%3  %n 次持有  p50 %4 秒  p95 %5 秒  最长 %6 秒  租期 %7 秒%8</numerusform>
        </translation>
    </message>
    <message>
        <source> (watchdog)</source>
        <translation>（看门狗）</translation>
    </message>
    <message>
        <source>  %1 renews every %2 s (lockWatchdogTimeout about %3 s); gaps ≤1.5×: %4, 1.5–3×: %5, &gt;3×: %6</source>
        <translation>  %1 每 %2 秒续期一次（lockWatchdogTimeout 约 %3 秒）；间隔 ≤1.5×：%4，1.5–3×：%5，&gt;3×：%6</translation>
    </message>
    <message>
        <source>no holds recorded in that window</source>
        <translation>该时间窗口内没有录制到持有</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::AtCommand</name>
    <message>
        <source>at takes a moment: ISO 8601 with a zone (2026-11-26T03:12:00Z), epoch ms, or now</source>
        <translation>at 需要一个时刻：带时区的 ISO 8601（2026-11-26T03:12:00Z）、纪元毫秒数，或 now</translation>
    </message>
    <message>
        <source>%1 at %2: not seen (%3)</source>
        <translation>%1 在 %2：未观察到（%3）</translation>
    </message>
    <message>
        <source>%1 ×%2 since %3</source>
        <translation>%1 ×%2，自 %3 起</translation>
    </message>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message>
        <source>(free)</source>
        <translation>（空闲）</translation>
    </message>
    <message>
        <source>nothing held at %1</source>
        <translation>%1 时没有被持有的锁</translation>
    </message>
    <message numerus="yes">
        <source>at %1, %n lock(s) held:</source>
        <translation>
            <numerusform>%1 时，%n 个锁被持有：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::BlockersCommand</name>
    <message>
        <source>%1  &lt;- %2 waits for %3 (%4)</source>
        <translation>%1  &lt;- %2 等待 %3（%4）</translation>
    </message>
    <message>
        <source>%1       which holds %2, %3</source>
        <translation>%1       它持有 %2，%3</translation>
    </message>
    <message numerus="yes">
        <source>%n root blocker(s), %1</source>
        <translation>
            <numerusform>%n 个根阻塞者，%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n deadlock(s)</source>
        <translation>
            <numerusform>%n 个死锁</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 heads the queue of %2, which nobody holds</source>
        <translation>%1 位于 %2 的队首，而该锁无人持有</translation>
    </message>
    <message>
        <source>%1 holds %2</source>
        <translation>%1 持有 %2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 · %n waiting</source>
        <translation>
            <numerusform>%1：%2 · %n 个在等</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (+%n unnamed)</source>
        <translation>
            <numerusform>（另有 %n 个未具名）</numerusform>
        </translation>
    </message>
    <message>
        <source>    fix: %1</source>
        <translation>    解决：%1</translation>
    </message>
    <message>
        <source>%1 waits for %2 (held by %3: %4)</source>
        <translation>%1 等待 %2（由 %3 持有：%4）</translation>
    </message>
    <message numerus="yes">
        <source>deadlock among %n owner(s):</source>
        <translation>
            <numerusform>%n 个持有者之间的死锁：</numerusform>
        </translation>
    </message>
    <message>
        <source>partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ClientCommand</name>
    <message>
        <source>%1: nothing recorded in that window</source>
        <translation>%1：该时间窗口内没有录制内容</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::Command</name>
    <message>
        <source>%1 (count %2)</source>
        <translation>%1（计数 %2）</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>ttl %1 ms</source>
        <translation>TTL %1 毫秒</translation>
    </message>
    <message>
        <source>%1 is not locked</source>
        <translation>%1 未被锁定</translation>
    </message>
    <message>
        <source>%1 is held by %2, %3</source>
        <translation>%1 由 %2 持有，%3</translation>
    </message>
    <message>
        <source>%1 mode, %2</source>
        <translation>%1 模式，%2</translation>
    </message>
    <message>
        <source>cancelled; nothing changed</source>
        <translation>已取消；未做任何更改</translation>
    </message>
    <message>
        <source>warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>warning: %1: %2</source>
        <translation>警告：%1：%2</translation>
    </message>
    <message>
        <source>%1 is a %2 lock held by token %3, %4</source>
        <translation>%1 是由令牌 %3 持有的 %2 锁，%4</translation>
    </message>
    <message>
        <source>%1 refused: the audit log %2 cannot be written (%3); nothing changed. Every write is audited: make the file writable, or point $LOCKSCOPE_AUDIT_LOG at one that is</source>
        <translation>%1 被拒绝：无法写入审计日志 %2（%3）；未做任何更改。每次写入都会被审计：请使该文件可写，或将 $LOCKSCOPE_AUDIT_LOG 指向一个可写的文件</translation>
    </message>
    <message>
        <source>--hex takes the name as pairs of hex digits (6f72646572733a3432 is orders:42), not &apos;%1&apos;</source>
        <translation>--hex 需要成对的十六进制数字作为名称（6f72646572733a3432 即 orders:42），而不是“%1”</translation>
    </message>
    <message>
        <source>warning: could not notify %1</source>
        <translation>警告：无法通知 %1</translation>
    </message>
    <message>
        <source>%1 is a production server: --yes needs --confirm-name %2 (the name typed); nothing changed</source>
        <translation>%1 是生产服务器：--yes 需要 --confirm-name %2（键入的名称）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 is a production server: type %2 to confirm: </source>
        <translation>%1 是生产服务器：键入 %2 以确认：</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::CounterCommand</name>
    <message>
        <source>--permits takes a number of permits from 1 to 1000000000</source>
        <translation>--permits 的取值为 1 到 1000000000 之间的许可数</translation>
    </message>
    <message>
        <source>release-permit needs --permit ID, the permit&apos;s id as show lists it</source>
        <translation>release-permit 需要 --permit ID，即 show 列出的许可 id</translation>
    </message>
    <message>
        <source>--expect-count takes the latch&apos;s count, an integer</source>
        <translation>--expect-count 的取值为闭锁的计数（整数）</translation>
    </message>
    <message>
        <source>%1 refused: read-only mode</source>
        <translation>%1 被拒绝：只读模式</translation>
    </message>
    <message>
        <source>open-latch needs --yes when standard input is not a terminal</source>
        <translation>标准输入不是终端时，open-latch 需要 --yes</translation>
    </message>
    <message>
        <source>Open %1 (count %2) and let every waiter through? [y/N] </source>
        <translation>打开 %1（计数 %2）并放行所有等待者？[y/N] </translation>
    </message>
    <message>
        <source>%1 does not exist: nothing to open</source>
        <translation>%1 不存在：没有可打开的</translation>
    </message>
    <message>
        <source>%1. Run the command again to confirm what is there now</source>
        <translation>%1。请再次运行该命令，以确认现在的状态</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::DemoCommand</name>
    <message>
        <source>--clients and --locks take a number from 1 to 100</source>
        <translation>--clients 和 --locks 的取值为 1 到 100</translation>
    </message>
    <message>
        <source>demo refused: read-only mode</source>
        <translation>已拒绝 demo：只读模式</translation>
    </message>
    <message>
        <source>cannot start a private redis-server: %1</source>
        <translation>无法启动私有 redis-server：%1</translation>
    </message>
    <message>
        <source>started a private redis-server at %1 (it stops when the demo ends; try: lockscope-cli --url %1 ...)</source>
        <translation>已在 %1 启动私有 redis-server（演示结束时停止；可试试：lockscope-cli --url %1 ...）</translation>
    </message>
    <message>
        <source>demo: %1 simulated clients on %2 at %3; stop with Ctrl+C</source>
        <translation>演示：%1 个模拟客户端，锁 %2，服务器 %3；按 Ctrl+C 停止</translation>
    </message>
    <message>
        <source>%1: stopping, releasing what the demo clients hold</source>
        <translation>%1：正在停止，释放演示客户端持有的锁</translation>
    </message>
    <message>
        <source>demo stopped</source>
        <translation>演示已停止</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ExpireCommand</name>
    <message>
        <source>expire needs --lease MS, a number of milliseconds above 0</source>
        <translation>expire 需要 --lease MS，一个大于 0 的毫秒数</translation>
    </message>
    <message>
        <source>expire refused: read-only mode</source>
        <translation>expire 被拒绝：只读模式</translation>
    </message>
    <message>
        <source>expire needs --yes when standard input is not a terminal</source>
        <translation>标准输入不是终端时，expire 需要 --yes</translation>
    </message>
    <message>
        <source>%1 is not locked: no lease to give</source>
        <translation>%1 未被锁定：无需设置租期</translation>
    </message>
    <message>
        <source>%1
Give it a lease of %2 ms (it expires then unless its holder renews it)? [y/N] </source>
        <translation>%1
为它设置 %2 毫秒的租期（届时除非持有者续期，否则过期）？[y/N] </translation>
    </message>
    <message>
        <source>%1. Run the command again to confirm what is there now</source>
        <translation>%1。请再次运行该命令，以确认现在的状态</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ExplainCommand</name>
    <message>
        <source>--around takes ISO 8601 with a zone (2026-11-26T03:12:15Z) or epoch ms</source>
        <translation>--around 需要带时区的 ISO 8601（2026-11-26T03:12:15Z）或纪元毫秒数</translation>
    </message>
    <message>
        <source>not a message LockScope knows (Redisson&apos;s, redsync&apos;s, redis-py&apos;s, python-redis-lock&apos;s, bsm/redislock&apos;s); give --owner CLIENT:THREAD or --lock NAME</source>
        <translation>不是 LockScope 认识的消息（Redisson、redsync、redis-py、python-redis-lock、bsm/redislock 的消息）；请给出 --owner CLIENT:THREAD 或 --lock NAME</translation>
    </message>
    <message>
        <source>this message (%1) names no lock: give --lock NAME</source>
        <translation>这条消息（%1）没有指出锁：请给出 --lock NAME</translation>
    </message>
    <message>
        <source>explain needs the message, --owner CLIENT:THREAD or --lock NAME</source>
        <translation>explain 需要消息、--owner CLIENT:THREAD 或 --lock NAME</translation>
    </message>
    <message>
        <source>no recording at %1</source>
        <translation>%1 处没有录制文件</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
    <message>
        <source>%1, and the message names no lock to look at now: give --lock NAME</source>
        <translation>%1，且消息中没有可供查看现状的锁：请给出 --lock NAME</translation>
    </message>
    <message>
        <source>%1: only the lock as it is now can be told. %2 %3</source>
        <translation>%1：只能说明锁的现状。%2 %3</translation>
    </message>
    <message>
        <source>is not held now</source>
        <translation>当前未被持有</translation>
    </message>
    <message>
        <source>is held now by %1</source>
        <translation>当前由 %1 持有</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ExportCommand</name>
    <message>
        <source>--format takes jsonl or csv</source>
        <translation>--format 的取值为 jsonl 或 csv</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ForceReleaseCommand</name>
    <message>
        <source>force-release refused: read-only mode</source>
        <translation>已拒绝强制释放：只读模式</translation>
    </message>
    <message>
        <source>force-release needs --yes when standard input is not a terminal</source>
        <translation>标准输入不是终端时，强制释放需要 --yes</translation>
    </message>
    <message>
        <source>%1 is not locked: nothing to release</source>
        <translation>%1 未被锁定：无需释放</translation>
    </message>
    <message>
        <source>%1
Force-release it and wake its waiters? [y/N] </source>
        <translation>%1
强制释放并唤醒其等待者吗？[y/N] </translation>
    </message>
    <message>
        <source>%1
Force-release it (delete the key)? [y/N] </source>
        <translation>%1
强制释放它（删除该键）？[y/N] </translation>
    </message>
    <message>
        <source>%1. Run the command again to confirm what is there now</source>
        <translation>%1。请再次运行该命令，以确认现在的状态</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::GuideCommand</name>
    <message>
        <source>guide takes a scenario id (G02), its slug (acquire) or all; guide --list lists them</source>
        <translation>guide 需要场景 id（如 G02）、其简称（如 acquire）或 all；guide --list 可列出所有场景</translation>
    </message>
    <message>
        <source>no scenario &quot;%1&quot;; guide --list lists them</source>
        <translation>没有场景 &quot;%1&quot;；guide --list 可列出所有场景</translation>
    </message>
    <message>
        <source>--speed takes fast, normal, real or a watchdog timeout T from 3000 to 60000 ms</source>
        <translation>--speed 接受 fast、normal、real，或 3000 到 60000 毫秒之间的看门狗超时 T</translation>
    </message>
    <message>
        <source>--script-version takes 4, 3.22, 3.21 or 3.10.5</source>
        <translation>--script-version 接受 4、3.22、3.21 或 3.10.5</translation>
    </message>
    <message>
        <source>guide refused: read-only mode (the guided demo takes and releases locks)</source>
        <translation>已拒绝 guide：只读模式（引导演示会获取和释放锁）</translation>
    </message>
    <message>
        <source>guide refused: on a server given with --url the guided demo writes guided:* keys; add --allow-writes to let it, or leave out --url to play on a private redis-server</source>
        <translation>已拒绝 guide：在 --url 指定的服务器上，引导演示会写入 guided:* 键；加上 --allow-writes 以允许写入，或省略 --url 以在私有 redis-server 上演示</translation>
    </message>
    <message>
        <source>cannot start a private redis-server: %1</source>
        <translation>无法启动私有 redis-server：%1</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>SLUG</source>
        <translation>简称</translation>
    </message>
    <message>
        <source>TITLE</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>SEEDS</source>
        <translation>参考文章</translation>
    </message>
    <message>
        <source>NEEDS</source>
        <translation>需要</translation>
    </message>
    <message>
        <source>guide %1 &quot;%2&quot; on %3, T = %4 ms</source>
        <translation>guide %1 &quot;%2&quot;，运行于 %3，T = %4 毫秒</translation>
    </message>
    <message>
        <source>a private redis-server at %1</source>
        <translation>私有 redis-server（%1）</translation>
    </message>
    <message>
        <source>ran (inferred): %1</source>
        <translation>已执行（推断）：%1</translation>
    </message>
    <message>
        <source>ran: %1</source>
        <translation>已执行：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n listening</source>
        <translation>
            <numerusform>%n 个在监听</numerusform>
        </translation>
    </message>
    <message>
        <source>unexpected: %1</source>
        <translation>与预期不符：%1</translation>
    </message>
    <message>
        <source>[Enter: step %1] </source>
        <translation>[Enter：第 %1 步] </translation>
    </message>
    <message>
        <source>guide %1: %2</source>
        <translation>guide %1：%2</translation>
    </message>
    <message>
        <source>guide %1: every step went as described</source>
        <translation>guide %1：每一步都与描述一致</translation>
    </message>
    <message numerus="yes">
        <source>guide %1: %n step(s) went otherwise than described</source>
        <translation>
            <numerusform>guide %1：有 %n 步与描述不符</numerusform>
        </translation>
    </message>
    <message>
        <source>guide %1: interrupted; the guided keys are deleted</source>
        <translation>guide %1：已中断；引导演示的键已删除</translation>
    </message>
    <message numerus="yes">
        <source>%n received the message</source>
        <translation>
            <numerusform>%n 个客户端收到了消息</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::HistoryCommand</name>
    <message>
        <source>%1: nothing recorded in that window</source>
        <translation>%1：该时间段内没有任何录制</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ListCommand</name>
    <message numerus="yes">
        <source>%n holders</source>
        <translation>
            <numerusform>%n 个持有者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s)</source>
        <translation>
            <numerusform>%n 把锁</numerusform>
        </translation>
    </message>
    <message>
        <source>%1  %2  %3  count %4  ttl %5  waiters %6  %7%8</source>
        <translation>%1  %2  %3  计数 %4  TTL %5  等待者 %6  %7%8</translation>
    </message>
    <message>
        <source>partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::LockCommand</name>
    <message>
        <source>lost %1: the hold vanished before it was released (lease ran out or force-released)</source>
        <translation>丢失 %1：持有在释放前消失（租期耗尽或被强制释放）</translation>
    </message>
    <message>
        <source>interrupted (%1) before the lock was acquired</source>
        <translation>获取锁之前被中断（%1）</translation>
    </message>
    <message>
        <source>--hold elapsed</source>
        <translation>--hold 时间已到</translation>
    </message>
    <message>
        <source>acquired %1 as %2 (lease %3 ms, %4)</source>
        <translation>已以 %2 身份获取 %1（租期 %3 毫秒，%4）</translation>
    </message>
    <message>
        <source>watchdog renewing</source>
        <translation>看门狗续期中</translation>
    </message>
    <message>
        <source>fixed lease</source>
        <translation>固定租期</translation>
    </message>
    <message>
        <source>end of standard input</source>
        <translation>标准输入结束</translation>
    </message>
    <message>
        <source>not acquired: %1</source>
        <translation>未获取：%1</translation>
    </message>
    <message>
        <source>lost: %1</source>
        <translation>丢失：%1</translation>
    </message>
    <message>
        <source>released %1 (%2)</source>
        <translation>已释放 %1（%2）</translation>
    </message>
    <message>
        <source>, fencing token %1</source>
        <translation>，防护令牌 %1</translation>
    </message>
    <message>
        <source>lock kind &quot;%1&quot; is not supported; use one of: %2</source>
        <translation>不支持锁类型“%1”；请使用以下之一：%2</translation>
    </message>
    <message>
        <source>not acquired: %1 is held by token %2, ttl %3 ms</source>
        <translation>未获取：%1 由令牌 %2 持有，TTL %3 毫秒</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ReapCommand</name>
    <message>
        <source>reap needs --policy FILE (docs/reap-policy.md)</source>
        <translation>reap 需要 --policy FILE（见 docs/reap-policy.md）</translation>
    </message>
    <message>
        <source>--observe takes milliseconds (0 to 86400000)</source>
        <translation>--observe 的值是毫秒数（0 到 86400000）</translation>
    </message>
    <message>
        <source>--dry-run changes nothing, so there is nothing to approve: give one or the other</source>
        <translation>--dry-run 不做任何更改，因此没有可批准的内容：两者只能给一个</translation>
    </message>
    <message>
        <source>reap refused: read-only mode</source>
        <translation>reap 被拒绝：只读模式</translation>
    </message>
    <message>
        <source>reap needs --approve (the dry run&apos;s report), --yes or --dry-run when standard input is not a terminal</source>
        <translation>标准输入不是终端时，reap 需要 --approve（演练的报告）、--yes 或 --dry-run</translation>
    </message>
    <message>
        <source>policy %1 is not unattended: run reap --dry-run, have its report read, and pass its report_sha256 or the report file to --approve (or set unattended: true in the policy)</source>
        <translation>策略 %1 不是无人值守的：请先运行 reap --dry-run，让人审阅报告，再把它的 report_sha256 或报告文件交给 --approve（或在策略中设置 unattended: true）</translation>
    </message>
    <message>
        <source>the approved report was made under another version of policy %1; nothing was released</source>
        <translation>所批准的报告是在策略 %1 的另一个版本下生成的；未释放任何内容</translation>
    </message>
    <message>
        <source>the approved report is of %1, not %2; nothing was released</source>
        <translation>所批准的报告针对的是 %1，而不是 %2；未释放任何内容</translation>
    </message>
    <message>
        <source>%1 is a production server: --approve needs --confirm-name %2 (the policy&apos;s name typed); nothing changed</source>
        <translation>%1 是生产服务器：--approve 需要同时给出 --confirm-name %2（输入策略名称）；未做任何更改</translation>
    </message>
    <message>
        <source>watching %1 for %2 ms (the policy&apos;s longest verdict_for)…</source>
        <translation>正在观察 %1，共 %2 毫秒（策略中最长的 verdict_for）…</translation>
    </message>
    <message numerus="yes">
        <source>%n to release</source>
        <translation>
            <numerusform>%n 个待释放</numerusform>
        </translation>
    </message>
    <message>
        <source>this run&apos;s report (sha256 %1) is not the one approved (%2): something changed since; nothing was released</source>
        <translation>本次运行的报告（sha256 %1）不是已批准的那份（%2）：此后有变化；未释放任何内容</translation>
    </message>
    <message numerus="yes">
        <source>Release these %n lock hold(s) as their libraries would, waking their waiters? [y/N] </source>
        <translation>
            <numerusform>按各自的库的方式释放这 %n 个锁持有，并唤醒等待者？[y/N] </numerusform>
        </translation>
    </message>
    <message>
        <source>  %1  %2: %3</source>
        <translation>  %1  %2：%3</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::RecordCommand</name>
    <message>
        <source>--retain takes a duration (7d, 12h, 90m)</source>
        <translation>--retain 的值是时长（7d、12h、90m）</translation>
    </message>
    <message>
        <source>--max-size takes a size of at least 1M (500M, 2G)</source>
        <translation>--max-size 的值是至少 1M 的大小（500M、2G）</translation>
    </message>
    <message>
        <source>recording to %1</source>
        <translation>正在录制到 %1</translation>
    </message>
    <message numerus="yes">
        <source>watching %n lock(s) via %1</source>
        <translation>
            <numerusform>正在通过 %1 观察 %n 个锁</numerusform>
        </translation>
    </message>
    <message>
        <source>warning: could not write the recording: %1</source>
        <translation>警告：无法写入录制：%1</translation>
    </message>
    <message>
        <source>warning: the recording fell behind the monitor; what it sees is left out (a gap in the recording) until the recording catches up</source>
        <translation>警告：录制跟不上监视器；在录制赶上之前，监视到的内容不会被保存（录制中留下一段空缺）</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::RecordingQuery</name>
    <message>
        <source>no recording at %1: serve-metrics and record keep one there; or give --db FILE</source>
        <translation>%1 处没有录制文件：serve-metrics 和 record 会在那里保存录制；或者用 --db FILE 指定</translation>
    </message>
    <message>
        <source>--since and --until take ISO 8601 times with a zone (2026-11-26T03:12:00Z) or epoch ms</source>
        <translation>--since 和 --until 需要带时区的 ISO 8601 时间（2026-11-26T03:12:00Z）或纪元毫秒数</translation>
    </message>
    <message>
        <source>%1 by %2@%3: %4%5</source>
        <translation>%2@%3 执行 %1：%4%5</translation>
    </message>
    <message>
        <source>, reason: %1</source>
        <translation>，原因：%1</translation>
    </message>
    <message>
        <source>  count %1</source>
        <translation>  计数 %1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ReleaseClientCommand</name>
    <message>
        <source>hold</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>read hold</source>
        <translation>读持有</translation>
    </message>
    <message>
        <source>token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>queue place</source>
        <translation>队列位置</translation>
    </message>
    <message>
        <source>release-client needs the client: its UUID (every thread of it) or one owner UUID:TID</source>
        <translation>release-client 需要指定客户端：它的 UUID（其所有线程）或一个持有者 UUID:TID</translation>
    </message>
    <message>
        <source>release-client refused: read-only mode</source>
        <translation>release-client 被拒绝：只读模式</translation>
    </message>
    <message>
        <source>release-client needs --yes (or --dry-run) when standard input is not a terminal</source>
        <translation>标准输入不是终端时，release-client 需要 --yes（或 --dry-run）</translation>
    </message>
    <message numerus="yes">
        <source>Release all %n item(s) of %1 and wake their waiters? [y/N] </source>
        <translation>
            <numerusform>释放 %1 的全部 %n 项并唤醒其等待者？[y/N] </numerusform>
        </translation>
    </message>
    <message>
        <source>  %1  %2  %3</source>
        <translation>  %1  %2  %3</translation>
    </message>
    <message>
        <source>  count %1</source>
        <translation>  计数 %1</translation>
    </message>
    <message>
        <source>%1 holds nothing and waits for nothing here</source>
        <translation>%1 在这里既不持有也不等待任何东西</translation>
    </message>
    <message numerus="yes">
        <source>%1 holds or waits for %n item(s):</source>
        <translation>
            <numerusform>%1 持有或等待 %n 项：</numerusform>
        </translation>
    </message>
    <message>
        <source>partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ReleaseCommand</name>
    <message>
        <source>release needs --owner UUID:TID (the holder as listed by show)</source>
        <translation>release 需要 --owner UUID:TID（即 show 列出的持有者）</translation>
    </message>
    <message>
        <source>release refused: read-only mode</source>
        <translation>已拒绝释放：只读模式</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::RepairQueueCommand</name>
    <message>
        <source>repair-queue refused: read-only mode</source>
        <translation>已拒绝 repair-queue：只读模式</translation>
    </message>
    <message>
        <source>repair-queue needs --yes (or --dry-run) when standard input is not a terminal</source>
        <translation>标准输入不是终端时，repair-queue 需要 --yes（或 --dry-run）</translation>
    </message>
    <message>
        <source>deadline passed</source>
        <translation>已过截止时间</translation>
    </message>
    <message>
        <source>nobody listening</source>
        <translation>无人监听</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>  %1  %2</source>
        <translation>  %1  %2</translation>
    </message>
    <message>
        <source>%1 has nobody queued</source>
        <translation>%1 没有排队者</translation>
    </message>
    <message>
        <source>%1 queue (%2):
%3</source>
        <translation>%1 队列（%2）：
%3</translation>
    </message>
    <message>
        <source>lock held</source>
        <translation>锁被持有</translation>
    </message>
    <message>
        <source>lock free</source>
        <translation>锁空闲</translation>
    </message>
    <message>
        <source>
no dead waiters: nothing changed</source>
        <translation>
没有失效的等待者：未作任何更改</translation>
    </message>
    <message>
        <source>--recheck takes a number of milliseconds</source>
        <translation>--recheck 需要毫秒数</translation>
    </message>
    <message>
        <source>not listening yet</source>
        <translation>尚未监听</translation>
    </message>
    <message numerus="yes">
        <source>Remove %n dead waiter(s) from the queue of %1 and wake the new head? [y/N] </source>
        <translation>
            <numerusform>从 %1 的队列中移除 %n 个已失效的等待者并唤醒新的队首？[y/N] </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>
removed %n dead waiter(s); the new head is woken when the holder releases</source>
        <translation>
            <numerusform>
已移除 %n 个已失效的等待者；持有者释放时新的队首会被唤醒</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>
removed %n dead waiter(s); the new head was woken</source>
        <translation>
            <numerusform>
已移除 %n 个已失效的等待者；新的队首已被唤醒</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ServeMetricsCommand</name>
    <message>
        <source>--listen takes HOST:PORT with HOST an IP address (got &quot;%1&quot;)</source>
        <translation>--listen 接受 HOST:PORT，HOST 须为 IP 地址（收到“%1”）</translation>
    </message>
    <message>
        <source>cannot listen on %1:%2 (in use, or not an address of this machine)</source>
        <translation>无法在 %1:%2 上监听（端口已被占用，或不是本机地址）</translation>
    </message>
    <message>
        <source>warning: serving on %1, reachable from other machines: the endpoint has no authentication and shows lock names</source>
        <translation>警告：正在 %1 上提供服务，其他机器可以访问：该端点没有认证，并会显示锁名</translation>
    </message>
    <message>
        <source>serving metrics at %1</source>
        <translation>正在 %1 提供指标</translation>
    </message>
    <message numerus="yes">
        <source>watching %n lock(s) via %1</source>
        <translation>
            <numerusform>正在通过 %1 观察 %n 个锁</numerusform>
        </translation>
    </message>
    <message>
        <source>warning: read-only mode: policy %1 is unattended, but its reports are only reported</source>
        <translation>警告：只读模式：策略 %1 是无人值守的，但其报告只会被报告</translation>
    </message>
    <message>
        <source>%1 is a production server: an unattended reaper needs --confirm-name %2 (the policy&apos;s name typed)</source>
        <translation>%1 是生产服务器：无人值守的回收器需要 --confirm-name %2（输入策略名称）</translation>
    </message>
    <message numerus="yes">
        <source>%n to release</source>
        <translation>
            <numerusform>%n 个待释放</numerusform>
        </translation>
    </message>
    <message>
        <source>serve-metrics reaper, unattended policy %1</source>
        <translation>serve-metrics 回收器，无人值守策略 %1</translation>
    </message>
    <message>
        <source>%1 (--no-record serves the metrics without recording, --db FILE records elsewhere)</source>
        <translation>%1（--no-record 只提供指标而不录制，--db FILE 录制到别处）</translation>
    </message>
    <message>
        <source>recording to %1</source>
        <translation>正在录制到 %1</translation>
    </message>
    <message>
        <source>warning: could not write the recording: %1</source>
        <translation>警告：无法写入录制：%1</translation>
    </message>
    <message>
        <source>warning: the recording fell behind the monitor; what it sees is left out (a gap in the recording) until the recording catches up</source>
        <translation>警告：录制跟不上监视器；在录制赶上之前，监视到的内容不会被保存（录制中留下一段空缺）</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::ShowCommand</name>
    <message>
        <source>show needs a lock name</source>
        <translation>show 需要一个锁名</translation>
    </message>
    <message>
        <source>%1: %2%3, confidence %4, ttl %5</source>
        <translation>%1：%2%3，可信度 %4，TTL %5</translation>
    </message>
    <message>
        <source> in %1 mode</source>
        <translation>（%1 模式）</translation>
    </message>
    <message>
        <source>  holder %1 (count %2)%3</source>
        <translation>  持有者 %1（计数 %2）%3</translation>
    </message>
    <message>
        <source>, dead reader</source>
        <translation>，已失效的读者</translation>
    </message>
    <message>
        <source>  queued %1</source>
        <translation>  排队中 %1</translation>
    </message>
    <message>
        <source>  waiters listening: %1</source>
        <translation>  监听中的等待者：%1</translation>
    </message>
    <message>
        <source>  evidence: %1</source>
        <translation>  依据：%1</translation>
    </message>
    <message>
        <source>  warning: %1</source>
        <translation>  警告：%1</translation>
    </message>
    <message>
        <source>  library: %1</source>
        <translation>  库：%1</translation>
    </message>
    <message>
        <source>, host %1</source>
        <translation>，主机 %1</translation>
    </message>
    <message>
        <source>, pid %1</source>
        <translation>，进程 %1</translation>
    </message>
    <message>
        <source>, node %1</source>
        <translation>，节点 %1</translation>
    </message>
    <message>
        <source>, since %1</source>
        <translation>，自 %1 起</translation>
    </message>
    <message>
        <source>, expired at %1</source>
        <translation>，已于 %1 过期</translation>
    </message>
    <message>
        <source>, expires at %1</source>
        <translation>，将于 %1 过期</translation>
    </message>
    <message>
        <source>  %1</source>
        <translation>  %1</translation>
    </message>
    <message>
        <source>--observe takes milliseconds (1 to 3600000)</source>
        <translation>--observe 的值是毫秒数（1 到 3600000）</translation>
    </message>
    <message>
        <source>watching %1 for %2 ms…</source>
        <translation>正在观察 %1，共 %2 毫秒…</translation>
    </message>
    <message>
        <source>  partial: %1</source>
        <translation>  不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::StatsCommand</name>
    <message>
        <source>stats needs --seconds N: how long to watch (at least 1)</source>
        <translation>stats 需要 --seconds N：观察多长时间（至少 1）</translation>
    </message>
    <message numerus="yes">
        <source>watching %n lock(s) for %1 s via %2...</source>
        <translation>
            <numerusform>正在通过 %2 观察 %n 个锁，持续 %1 秒……</numerusform>
        </translation>
    </message>
    <message>
        <source>--since and --until take ISO 8601 times with a zone (2026-11-26T03:12:00Z) or epoch ms</source>
        <translation>--since 和 --until 需要带时区的 ISO 8601 时间（2026-11-26T03:12:00Z）或纪元毫秒数</translation>
    </message>
    <message>
        <source>from a recording: waiters and waits are not recorded, only the holds&apos; events</source>
        <translation>来自录制文件：等待者和等待时间不会被录制，只有持有的事件</translation>
    </message>
    <message numerus="yes">
        <source>recording %1: %2 to %3, %n event(s), %4 gap(s) in what was seen</source>
        <translation>
            <numerusform>录制文件 %1：%2 至 %3，%n 个事件，观察空白 %4 处</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::StatsWatchCommand</name>
    <message>
        <source>monitor: %1</source>
        <translation>监视器：%1</translation>
    </message>
    <message>
        <source>--limit takes a number of locks (at least 1)</source>
        <translation>--limit 接受锁的数量（至少 1）</translation>
    </message>
    <message>
        <source>LOCK</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>LIBRARY</source>
        <translation>库</translation>
    </message>
    <message>
        <source>NEW</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>ACQ</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>ACQ/MIN</source>
        <translation>获取/分</translation>
    </message>
    <message>
        <source>WAITERS</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>MAX</source>
        <translation>最多</translation>
    </message>
    <message>
        <source>WAIT-S</source>
        <translation>等待秒</translation>
    </message>
    <message>
        <source>HOLD P50</source>
        <translation>持有 P50</translation>
    </message>
    <message>
        <source>P95</source>
        <translation>P95</translation>
    </message>
    <message>
        <source>MAX MS</source>
        <translation>最长毫秒</translation>
    </message>
    <message>
        <source>EXPIRED</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>OWNER CHG</source>
        <translation>换主</translation>
    </message>
    <message>
        <source>(no lock activity seen yet)</source>
        <translation>（尚未看到锁活动）</translation>
    </message>
    <message>
        <source>~ inferred: from re-scans, polls or reasoning rather than keyspace events</source>
        <translation>~ 推断值：来自重新扫描、轮询或推理，而非键空间事件</translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1  %n lock(s), %2 tracked, watched %3 s via %4</source>
        <translation>
            <numerusform>%1  %n 把锁，跟踪 %2 把，已观察 %3 秒，方式 %4</numerusform>
        </translation>
    </message>
    <message>
        <source>WAIT P50</source>
        <translation>等待 P50</translation>
    </message>
    <message>
        <source>LONGEST</source>
        <translation>最长等待</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::StuckCommand</name>
    <message>
        <source>--observe takes milliseconds (0 to 3600000)</source>
        <translation>--observe 的值是毫秒数（0 到 3600000）</translation>
    </message>
    <message>
        <source>watching %1 for %2 ms…</source>
        <translation>正在观察 %1，共 %2 毫秒…</translation>
    </message>
    <message>
        <source>the observation never completed a pass over every node (%1): what it did not see is judged from one read</source>
        <translation>观察未能完整扫描每个节点（%1）：它未看到的部分按一次读取判断</translation>
    </message>
    <message>
        <source>no answer in time</source>
        <translation>未及时得到应答</translation>
    </message>
    <message>
        <source>deadlock: its holder waits for a lock whose holder waits, in a ring, for this one</source>
        <translation>死锁：它的持有者在等待另一把锁，而那把锁的持有者又沿环等待这把锁</translation>
    </message>
    <message>
        <source>one holder in the ring must let go (lockscope-cli blockers shows the ring): stop that thread, or force release its lock once you accept that it loses it</source>
        <translation>环中必须有一个持有者放手（lockscope-cli blockers 会显示这个环）：停止那个线程，或在接受它会失去锁之后强制释放它的锁</translation>
    </message>
    <message>
        <source>%1  %2  since %3  holder %4  fix: %5</source>
        <translation>%1  %2  起始 %3  持有者 %4  解决：%5</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>no stuck locks</source>
        <translation>没有卡住的锁</translation>
    </message>
    <message>
        <source>no stuck locks among those it could see</source>
        <translation>在能看到的锁中没有卡住的锁</translation>
    </message>
    <message>
        <source>partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::TopCommand</name>
    <message>
        <source>--interval takes milliseconds between redraws (at least 100)</source>
        <translation>--interval 接受两次重绘之间的毫秒数（至少 100）</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::TraceCommand</name>
    <message>
        <source>trace takes --seconds N from 1 to 300 (how long MONITOR runs; default 10)</source>
        <translation>trace 的 --seconds N 取 1 到 300（MONITOR 运行的秒数；默认 10）</translation>
    </message>
    <message>
        <source>tracing %1 for %2 s: MONITOR copies every command this server runs to LockScope while it runs</source>
        <translation>正在跟踪 %1，共 %2 秒：MONITOR 运行期间，这台服务器执行的每条命令都会复制给 LockScope</translation>
    </message>
    <message>
        <source>tracing %1 servers (%2) for %3 s: MONITOR copies every command these servers run to LockScope while it runs</source>
        <translation>正在跟踪 %1 台服务器（%2），共 %3 秒：MONITOR 运行期间，这些服务器执行的每条命令都会复制给 LockScope</translation>
    </message>
    <message>
        <source>warning: the findings could not be kept in %1 (%2)</source>
        <translation>警告：跟踪结果无法保存到 %1（%2）</translation>
    </message>
    <message>
        <source>traced %1 for %2</source>
        <translation>已跟踪 %1，历时 %2</translation>
    </message>
    <message>
        <source>OWNER / TOKEN</source>
        <translation>持有者 / 令牌</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>KEYS</source>
        <translation>键</translation>
    </message>
    <message>
        <source>CONNECTION</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>LIB</source>
        <translation>客户端库</translation>
    </message>
    <message>
        <source>AGE</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>IDLE</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>LAST SEEN</source>
        <translation>最后出现</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已断开</translation>
    </message>
    <message>
        <source>no owner id or token was seen in a lock command</source>
        <translation>锁命令中没有出现任何持有者 id 或令牌</translation>
    </message>
    <message>
        <source>no waiter retried an acquire</source>
        <translation>没有等待者重试获取</translation>
    </message>
    <message>
        <source>waiters that retry:</source>
        <translation>反复重试的等待者：</translation>
    </message>
    <message>
        <source>%1 retries %2 %3 times, %4/s (as %5)</source>
        <translation>%1 重试 %2 共 %3 次，每秒 %4 次（身份 %5）</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>ADDR</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>USER</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>NODE</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>no connection listed</source>
        <translation>没有列出任何连接</translation>
    </message>
    <message>
        <source>connections:</source>
        <translation>连接：</translation>
    </message>
    <message>
        <source>cost: the server spent %1 ms of CPU in %2 s (%3 % of a core), MONITOR sent %4 lines, %5 bytes</source>
        <translation>开销：服务器在 %2 秒内用了 %1 毫秒 CPU（一个核心的 %3 %），MONITOR 发送了 %4 行、%5 字节</translation>
    </message>
    <message>
        <source>cost: the server&apos;s CPU could not be read (INFO cpu); MONITOR sent %1 lines, %2 bytes in %3 s</source>
        <translation>开销：无法读取服务器的 CPU（INFO cpu）；MONITOR 在 %3 秒内发送了 %1 行、%2 字节</translation>
    </message>
    <message>
        <source>partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Cli::WatchCommand</name>
    <message>
        <source>keyspace events</source>
        <translation>键空间事件</translation>
    </message>
    <message>
        <source>wake-up messages, and a re-scan every %1 ms</source>
        <translation>唤醒消息，外加每 %1 毫秒重新扫描一次</translation>
    </message>
    <message>
        <source>a re-scan every %1 ms only</source>
        <translation>仅每 %1 毫秒重新扫描一次</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message numerus="yes">
        <source>watching %n lock(s) matching %1 via %2</source>
        <translation>
            <numerusform>正在通过%2监视 %n 个匹配 %1 的锁</numerusform>
        </translation>
    </message>
    <message>
        <source>updates via %1%2</source>
        <translation>更新方式：%1%2</translation>
    </message>
    <message>
        <source>monitor: %1</source>
        <translation>监视器：%1</translation>
    </message>
    <message>
        <source>  count %1</source>
        <translation>  计数 %1</translation>
    </message>
    <message>
        <source>  ttl %1 ms</source>
        <translation>  TTL %1 毫秒</translation>
    </message>
    <message>
        <source>warning: %1: %2</source>
        <translation>警告：%1：%2</translation>
    </message>
    <message>
        <source>keyspace events switched on (notify-keyspace-events now includes K, h, $, z, g and x)</source>
        <translation>已开启键空间事件（notify-keyspace-events 现包含 K、h、$、z、g 和 x）</translation>
    </message>
</context>
<context>
    <name>LockScope::ConnectionDialog</name>
    <message>
        <source>Connect to Redis</source>
        <translation>连接到 Redis</translation>
    </message>
    <message>
        <source>New connection</source>
        <translation>新建连接</translation>
    </message>
    <message>
        <source>Recent connections…</source>
        <translation>最近的连接…</translation>
    </message>
    <message>
        <source>Redis URL</source>
        <translation>Redis URL</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>Remember in the system keychain</source>
        <translation>保存在系统钥匙串中</translation>
    </message>
    <message>
        <source>No keychain is available: the password is asked for each time</source>
        <translation>没有可用的钥匙串：每次都会询问密码</translation>
    </message>
    <message>
        <source>Read-only: never write to this server</source>
        <translation>只读：绝不写入此服务器</translation>
    </message>
    <message>
        <source>No colour</source>
        <translation>无颜色</translation>
    </message>
    <message>
        <source>Red (production)</source>
        <translation>红色（生产）</translation>
    </message>
    <message>
        <source>Orange (staging)</source>
        <translation>橙色（预发布）</translation>
    </message>
    <message>
        <source>Green (development)</source>
        <translation>绿色（开发）</translation>
    </message>
    <message>
        <source>Blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <source>&amp;Profile:</source>
        <translation>配置(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>URL(&amp;U)：</translation>
    </message>
    <message>
        <source>Pass&amp;word:</source>
        <translation>密码(&amp;W)：</translation>
    </message>
    <message>
        <source>TLS CA file:</source>
        <translation>TLS CA 文件：</translation>
    </message>
    <message>
        <source>TLS client certificate:</source>
        <translation>TLS 客户端证书：</translation>
    </message>
    <message>
        <source>TLS client key:</source>
        <translation>TLS 客户端私钥：</translation>
    </message>
    <message>
        <source>TLS server name:</source>
        <translation>TLS 服务器名：</translation>
    </message>
    <message>
        <source>Scan &amp;pattern:</source>
        <translation>扫描模式(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Colour tag:</source>
        <translation>颜色标记(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Save profile</source>
        <translation>保存配置(&amp;S)</translation>
    </message>
    <message>
        <source>C&amp;onnect</source>
        <translation>连接(&amp;O)</translation>
    </message>
    <message>
        <source>A profile needs a name</source>
        <translation>配置需要一个名称</translation>
    </message>
    <message>
        <source>Saved profile %1 (without its password)</source>
        <translation>已保存配置 %1（不含密码）</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>unknown version</source>
        <translation>未知版本</translation>
    </message>
    <message>
        <source>Connected: Redis %1, first reply after %2 ms</source>
        <translation>已连接：Redis %1，首个应答用时 %2 毫秒</translation>
    </message>
    <message>
        <source>One server, or a cluster found from it</source>
        <translation>单台服务器，或由它发现的集群</translation>
    </message>
    <message>
        <source>Redis Cluster (the URL is a seed node)</source>
        <translation>Redis Cluster（URL 为种子节点）</translation>
    </message>
    <message>
        <source>Sentinel (the master is looked up by name)</source>
        <translation>Sentinel（按名称查找主节点）</translation>
    </message>
    <message>
        <source>Automatic (sharded in a Redis 7 cluster, else plain)</source>
        <translation>自动（Redis 7 集群中用分片，否则用普通）</translation>
    </message>
    <message>
        <source>Plain PUBLISH</source>
        <translation>普通 PUBLISH</translation>
    </message>
    <message>
        <source>Sharded SPUBLISH (Redisson 3.22+ on a cluster)</source>
        <translation>分片 SPUBLISH（集群上的 Redisson 3.22+）</translation>
    </message>
    <message>
        <source>Both (a fleet that mixes them)</source>
        <translation>两者都用（混用两者的服务群）</translation>
    </message>
    <message>
        <source>How releases wake the waiters. Plain and sharded channels are separate: a waiter on one never hears a release published on the other.</source>
        <translation>释放时如何唤醒等待者。普通频道与分片频道互相独立：在一种频道上等待的客户端永远收不到在另一种频道上发布的释放消息。</translation>
    </message>
    <message>
        <source>&amp;Topology:</source>
        <translation>拓扑(&amp;T)：</translation>
    </message>
    <message>
        <source>Sentinels:</source>
        <translation>Sentinel 地址：</translation>
    </message>
    <message>
        <source>Sentinel master:</source>
        <translation>Sentinel 主节点名：</translation>
    </message>
    <message>
        <source>Wake-ups &amp;published as:</source>
        <translation>唤醒消息发布方式(&amp;P)：</translation>
    </message>
    <message>
        <source>Monitor reads from replicas (cluster): spares the masters, shows data as old as the replication lag</source>
        <translation>监视器从副本读取（集群）：减轻主节点负担，显示的数据与复制延迟一样旧</translation>
    </message>
    <message>
        <source>String lock patterns</source>
        <translation>字符串锁模式</translation>
    </message>
    <message>
        <source>Globs separated by spaces. A plain string key (SET name token NX PX) is shown as a lock only if its name matches one of these and it has a TTL; its value is the holder&apos;s token. Empty: string locks are not looked for.</source>
        <translation>以空格分隔的通配符。普通字符串键（SET 名称 令牌 NX PX）只有在名称匹配其中之一且带有 TTL 时才显示为锁；其值即持有者的令牌。留空：不查找字符串锁。</translation>
    </message>
    <message>
        <source>St&amp;ring lock patterns:</source>
        <translation>字符串锁模式(&amp;R)：</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>never wait</source>
        <translation>从不等待</translation>
    </message>
    <message>
        <source>After a lock write on a master with replicas, wait this long for them to have it (WAIT), as Redisson&apos;s slavesSyncTimeout does</source>
        <translation>在有副本的主节点上写锁后，最多等待这么久让副本收到（WAIT），与 Redisson 的 slavesSyncTimeout 相同</translation>
    </message>
    <message>
        <source>Wait for &amp;replicas:</source>
        <translation>等待副本(&amp;R)：</translation>
    </message>
    <message>
        <source>Undo an acquire that no replica acknowledged in time (Redisson&apos;s checkLockSyncedSlaves)</source>
        <translation>撤销没有副本及时确认的获取（Redisson 的 checkLockSyncedSlaves）</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Profiles from RESP.app, Another Redis Desktop Manager or Tiny RDM (their exported or saved connections), or a list of redis:// URLs</source>
        <translation>来自 RESP.app、Another Redis Desktop Manager 或 Tiny RDM 的配置（其导出或保存的连接），或 redis:// URL 列表</translation>
    </message>
    <message>
        <source>Import connections</source>
        <translation>导入连接</translation>
    </message>
    <message>
        <source>Connection files (*.json *.ano *.yaml *.yml *.zip *.txt)</source>
        <translation>连接文件 (*.json *.ano *.yaml *.yml *.zip *.txt)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Ser&amp;ver</source>
        <translation>服务器(&amp;V)</translation>
    </message>
    <message>
        <source>TLS and SS&amp;H</source>
        <translation>TLS 与 SSH(&amp;H)</translation>
    </message>
    <message>
        <source>Loc&amp;ks and replicas</source>
        <translation>锁与副本(&amp;K)</translation>
    </message>
    <message>
        <source>Saved profiles</source>
        <translation>已保存的配置</translation>
    </message>
    <message>
        <source>Through SSH %1 (TLS and SSH tab): the URL names the server as that host sees it.</source>
        <translation>经由 SSH %1（见“TLS 与 SSH”页）：URL 写的是从该主机看到的服务器地址。</translation>
    </message>
    <message>
        <source>(no host yet)</source>
        <translation>（尚未填写主机）</translation>
    </message>
    <message>
        <source>Production: a force release needs the lock&apos;s name typed to confirm</source>
        <translation>生产环境：强制释放需要键入锁的名称来确认</translation>
    </message>
</context>
<context>
    <name>LockScope::ConnectionOptions</name>
    <message>
        <source>not a valid Redis URL (expected redis://[user[:password]@]host[:port][/db])</source>
        <translation>不是有效的 Redis URL（应为 redis://[user[:password]@]host[:port][/db]）</translation>
    </message>
    <message>
        <source>unsupported URL scheme &quot;%1&quot; (use redis:// or rediss://)</source>
        <translation>不支持的 URL 协议“%1”（请使用 redis:// 或 rediss://）</translation>
    </message>
    <message>
        <source>port out of range</source>
        <translation>端口超出范围</translation>
    </message>
    <message>
        <source>database &quot;%1&quot; is not a non-negative number</source>
        <translation>数据库“%1”不是非负整数</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not HOST:PORT (a Sentinel address)</source>
        <translation>“%1”不是 HOST:PORT 形式（Sentinel 地址）</translation>
    </message>
    <message>
        <source>no Sentinel address given</source>
        <translation>未提供 Sentinel 地址</translation>
    </message>
    <message>
        <source>through SSH %1</source>
        <translation>经由 SSH %1</translation>
    </message>
    <message>
        <source>direct</source>
        <translation>直连</translation>
    </message>
    <message>
        <source>, TLS</source>
        <translation>，TLS</translation>
    </message>
    <message>
        <source>%1 through SSH %2</source>
        <translation>%1（经由 SSH %2）</translation>
    </message>
</context>
<context>
    <name>LockScope::ConnectionProfile</name>
    <message>
        <source>Sentinel needs the master&apos;s name</source>
        <translation>Sentinel 需要主节点名称</translation>
    </message>
    <message>
        <source>no saved connection is called &quot;%1&quot;: the console has none saved</source>
        <translation>没有名为“%1”的已保存连接：控制台中尚未保存任何连接</translation>
    </message>
    <message>
        <source>no saved connection is called &quot;%1&quot;; saved: %2</source>
        <translation>没有名为“%1”的已保存连接；已保存的有：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::ConsoleActions</name>
    <message>
        <source>&amp;Acquire…</source>
        <translation>获取(&amp;A)…</translation>
    </message>
    <message>
        <source>Take a lock as this console&apos;s own client (Ctrl+N)</source>
        <translation>以本控制台自己的客户端身份获取锁（Ctrl+N）</translation>
    </message>
    <message>
        <source>&amp;Release one level</source>
        <translation>释放一层(&amp;R)</translation>
    </message>
    <message>
        <source>Release &amp;all levels</source>
        <translation>释放全部层(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Watchdog</source>
        <translation>看门狗(&amp;W)</translation>
    </message>
    <message>
        <source>Switch the watchdog of our hold off (the lease runs out) or on again (Ctrl+W)</source>
        <translation>关闭我方持有的看门狗（租期将耗尽）或重新开启（Ctrl+W）</translation>
    </message>
    <message>
        <source>&amp;Force release…</source>
        <translation>强制释放(&amp;F)…</translation>
    </message>
    <message>
        <source>Delete anyone&apos;s lock and wake its waiters, if the holders are still the ones shown</source>
        <translation>删除任何人的锁并唤醒其等待者（前提是持有者仍是所显示的那些）</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <source>our hold vanished before we released it</source>
        <translation>我方持有在释放前消失了</translation>
    </message>
    <message>
        <source>Read-only connection: nothing is written</source>
        <translation>只读连接：不会写入任何内容</translation>
    </message>
    <message>
        <source>Could not write the audit log: %1</source>
        <translation>无法写入审计日志：%1</translation>
    </message>
    <message>
        <source>Acquire %1 failed: %2</source>
        <translation>获取 %1 失败：%2</translation>
    </message>
    <message>
        <source>Acquired %1 as %2</source>
        <translation>已以 %2 的身份获取 %1</translation>
    </message>
    <message>
        <source>Release of %1 failed: %2</source>
        <translation>释放 %1 失败：%2</translation>
    </message>
    <message>
        <source>No hold of ours on %1 to switch the watchdog of</source>
        <translation>我方未持有 %1，无法切换看门狗</translation>
    </message>
    <message>
        <source>Watchdog on for %1: the lease is renewed again</source>
        <translation>%1 的看门狗已开启：租期重新得到续期</translation>
    </message>
    <message>
        <source>Watchdog off for %1: the lease now runs out unless it is switched on again</source>
        <translation>%1 的看门狗已关闭：除非重新开启，否则租期将耗尽</translation>
    </message>
    <message>
        <source>Force release of %1 failed: %2</source>
        <translation>强制释放 %1 失败：%2</translation>
    </message>
    <message>
        <source>Force release refused</source>
        <translation>已拒绝强制释放</translation>
    </message>
    <message>
        <source>Lost %1: it expired, was deleted or was overwritten before we released it</source>
        <translation>丢失 %1：在我们释放之前，它已过期、被删除或被覆盖</translation>
    </message>
    <message>
        <source>%1 is held by token %2; not acquired</source>
        <translation>%1 由令牌 %2 持有；未获取</translation>
    </message>
    <message>
        <source>%1 is gone (released, expired or deleted): nothing was force-released</source>
        <translation>%1 已不存在（已释放、已过期或已删除）：未强制释放任何锁</translation>
    </message>
    <message>
        <source>Stopped waiting for %1; not acquired</source>
        <translation>已停止等待 %1；未获取</translation>
    </message>
    <message>
        <source>Acquire a lock</source>
        <translation>获取锁</translation>
    </message>
    <message>
        <source>Waiting for %1: %2 s of at most %3 s</source>
        <translation>正在等待 %1：已等 %2 秒，最多 %3 秒</translation>
    </message>
    <message>
        <source>Waiting for %1 until it is free: %2 s so far</source>
        <translation>正在等待 %1 直到其空闲：已等 %2 秒</translation>
    </message>
    <message>
        <source>Not acquired: %1</source>
        <translation>未获取：%1</translation>
    </message>
    <message>
        <source>%1 was busy; not acquired</source>
        <translation>%1 正忙；未获取</translation>
    </message>
    <message>
        <source>%1 is held by %2; not acquired</source>
        <translation>%1 由 %2 持有；未获取</translation>
    </message>
    <message>
        <source>force-released by this console</source>
        <translation>由此控制台强制释放</translation>
    </message>
    <message>
        <source>Force release of %1 refused: %2</source>
        <translation>拒绝强制释放 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not locked any more: nothing was force-released</source>
        <translation>%1 已不再被锁定：没有强制释放任何内容</translation>
    </message>
    <message>
        <source>Not connected to the server: %1 was not acquired, nothing was written</source>
        <translation>未连接到服务器：%1 未获取，未写入任何内容</translation>
    </message>
    <message>
        <source>Release everything this client holds…</source>
        <translation>释放该客户端持有的一切…</translation>
    </message>
    <message>
        <source>Release every hold, read hold, token and queue place of the client chosen, as each library would: the dialog lists them first</source>
        <translation>按各库自身的方式释放所选客户端的每个持有、读持有、令牌和队列位置：对话框会先列出它们</translation>
    </message>
    <message>
        <source>Could not notify %1</source>
        <translation>无法通知 %1</translation>
    </message>
</context>
<context>
    <name>LockScope::ConsoleRecording</name>
    <message>
        <source>&amp;Record the last hour</source>
        <translation>录制最近一小时(&amp;R)</translation>
    </message>
    <message>
        <source>Keep what the console sees for an hour, in %1 (lockscope-cli history, at and explain read it with --db)</source>
        <translation>把控制台看到的内容保留一小时，存于 %1（lockscope-cli 的 history、at 和 explain 用 --db 读取）</translation>
    </message>
    <message>
        <source>Not recording: %1</source>
        <translation>未在录制：%1</translation>
    </message>
    <message>
        <source>Not recording</source>
        <translation>未在录制</translation>
    </message>
    <message>
        <source>● Recording the last hour · %1</source>
        <translation>● 正在录制最近一小时 · %1</translation>
    </message>
</context>
<context>
    <name>LockScope::ContentionPane</name>
    <message>
        <source>Hot</source>
        <translation>热点</translation>
    </message>
    <message>
        <source>Locks ranked by contention</source>
        <translation>按争用程度排序的锁</translation>
    </message>
    <message>
        <source>Stuck</source>
        <translation>卡住</translation>
    </message>
    <message>
        <source>Stuck locks</source>
        <translation>卡住的锁</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>Clients and their holds</source>
        <translation>客户端及其持有</translation>
    </message>
    <message>
        <source>Ranked by waiter-time in the last minutes, then acquisitions per minute, then p95 hold</source>
        <translation>先按最近几分钟的等待时间排序，再按每分钟获取次数，再按 p95 持有时间</translation>
    </message>
    <message>
        <source>What keeps a lock from being taken, and what fixes it</source>
        <translation>是什么让锁无法被获取，以及如何解决</translation>
    </message>
    <message>
        <source>Every client id: what it holds now, and its history. Double-click to show its locks</source>
        <translation>每个客户端 ID：它现在持有什么，以及它的历史。双击显示它的锁</translation>
    </message>
    <message>
        <source>Show in table</source>
        <translation>在表中显示</translation>
    </message>
    <message>
        <source>Fix…</source>
        <translation>修复…</translation>
    </message>
    <message>
        <source>Opens the force release dialog for this lock: it shows what will be deleted first</source>
        <translation>为此锁打开强制释放对话框：它会先显示将要删除的内容</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save what this view shows as CSV or JSON</source>
        <translation>将此视图显示的内容保存为 CSV 或 JSON</translation>
    </message>
    <message>
        <source>Export view</source>
        <translation>导出视图</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Too many locks to index their holders: what each client holds now is not counted; double-click a client to see its locks</source>
        <translation>锁太多，无法为其持有者建立索引：不统计每个客户端当前持有的锁；双击客户端可查看它的锁</translation>
    </message>
</context>
<context>
    <name>LockScope::ContentionViews</name>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Waiters</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>Waiter-s (recent)</source>
        <translation>等待秒（近期）</translation>
    </message>
    <message>
        <source>Acq/min</source>
        <translation>获取/分</translation>
    </message>
    <message>
        <source>Acquisitions</source>
        <translation>获取次数</translation>
    </message>
    <message>
        <source>Hold p50 ms</source>
        <translation>持有 p50 毫秒</translation>
    </message>
    <message>
        <source>p95 ms</source>
        <translation>p95 毫秒</translation>
    </message>
    <message>
        <source>max ms</source>
        <translation>最长毫秒</translation>
    </message>
    <message>
        <source>Expiries</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>Owner changes</source>
        <translation>换主</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>数据来源</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>For (s)</source>
        <translation>持续（秒）</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>What fixes it</source>
        <translation>解决办法</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Holding now</source>
        <translation>当前持有</translation>
    </message>
    <message>
        <source>Takeovers</source>
        <translation>接管</translation>
    </message>
    <message>
        <source>Hold p95 ms</source>
        <translation>持有 p95 毫秒</translation>
    </message>
    <message>
        <source>inferred</source>
        <translation>推断</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Inferred from re-scans and wake-up messages: holds shorter than a re-scan are missed, and times are known to the re-scan interval</source>
        <translation>由重新扫描和唤醒消息推断：短于一次重新扫描的持有会被漏掉，时间只精确到重新扫描间隔</translation>
    </message>
    <message>
        <source>Measured from keyspace events</source>
        <translation>由键空间事件实测</translation>
    </message>
    <message>
        <source>Wait p50 ms</source>
        <translation>等待 p50 毫秒</translation>
    </message>
    <message>
        <source>Wait p95 ms</source>
        <translation>等待 p95 毫秒</translation>
    </message>
    <message>
        <source>Wait max ms</source>
        <translation>等待最大毫秒</translation>
    </message>
    <message>
        <source>Longest wait now ms</source>
        <translation>当前最长等待毫秒</translation>
    </message>
</context>
<context>
    <name>LockScope::CopyActions</name>
    <message>
        <source>Copy &amp;name</source>
        <translation>复制名称(&amp;N)</translation>
    </message>
    <message>
        <source>The lock&apos;s name as lockscope-cli list and show print it (binary bytes as \xNN)</source>
        <translation>按 lockscope-cli list 和 show 的显示形式复制锁名（二进制字节写作 \xNN）</translation>
    </message>
    <message>
        <source>Copy &amp;owner</source>
        <translation>复制持有者(&amp;O)</translation>
    </message>
    <message>
        <source>Who holds it, one owner per line: what --owner and --expect-owner take</source>
        <translation>持有它的人，每行一个：即 --owner 和 --expect-owner 所接受的值</translation>
    </message>
    <message>
        <source>Copy lockscope-cli co&amp;mmand</source>
        <translation>复制 lockscope-cli 命令(&amp;M)</translation>
    </message>
    <message>
        <source>The lockscope-cli command that shows this lock, for a terminal or a ticket</source>
        <translation>显示此锁的 lockscope-cli 命令，可用于终端或工单</translation>
    </message>
</context>
<context>
    <name>LockScope::CounterAction</name>
    <message>
        <source>%1 holds a %2, not a Redisson semaphore&apos;s or latch&apos;s count; nothing changed</source>
        <translation>%1 存放的是 %2，不是 Redisson 信号量或闭锁的计数；未做任何更改</translation>
    </message>
    <message>
        <source>%1 does not exist; nothing changed</source>
        <translation>%1 不存在；未做任何更改</translation>
    </message>
    <message>
        <source>unexpected answer from the server</source>
        <translation>服务器返回了意外的应答</translation>
    </message>
</context>
<context>
    <name>LockScope::CounterActions</name>
    <message>
        <source>Add &amp;permits…</source>
        <translation>增加许可(&amp;P)…</translation>
    </message>
    <message>
        <source>Give a Redisson semaphore more free permits and tell its waiters</source>
        <translation>为 Redisson 信号量增加空闲许可并通知其等待者</translation>
    </message>
    <message>
        <source>Release a p&amp;ermit…</source>
        <translation>归还许可(&amp;E)…</translation>
    </message>
    <message>
        <source>Give back one permit of an expirable semaphore, as its holder would</source>
        <translation>像持有者那样归还可过期信号量的一个许可</translation>
    </message>
    <message>
        <source>&amp;Open latch…</source>
        <translation>打开闭锁(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a Redisson count-down latch: every waiter goes on</source>
        <translation>打开 Redisson 闭锁：所有等待者继续执行</translation>
    </message>
    <message>
        <source>Add permits</source>
        <translation>增加许可</translation>
    </message>
    <message>
        <source>%1 has %2 free now. Permits to add (its waiters are told):</source>
        <translation>%1 现有 %2 个空闲许可。要增加的许可数（会通知其等待者）：</translation>
    </message>
    <message>
        <source>Release a permit</source>
        <translation>归还许可</translation>
    </message>
    <message>
        <source>The permit of %1 to give back, as its holder&apos;s release would:</source>
        <translation>要归还的 %1 的许可（如同其持有者释放）：</translation>
    </message>
    <message>
        <source>Open latch</source>
        <translation>打开闭锁</translation>
    </message>
    <message>
        <source>Open %1 (count %2)? Every waiter goes on at once, as if the count had reached zero.</source>
        <translation>打开 %1（计数 %2）？所有等待者将立即继续执行，如同计数已归零。</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>%1 refused: the audit log %2 cannot be written (%3). Nothing was changed: every write of the console is audited. Make the file writable, or start LockScope with $LOCKSCOPE_AUDIT_LOG pointing at one that is.</source>
        <translation>%1 被拒绝：无法写入审计日志 %2（%3）。未做任何更改：控制台的每次写入都会被审计。请使该文件可写，或在启动 LockScope 时将 $LOCKSCOPE_AUDIT_LOG 指向一个可写的文件。</translation>
    </message>
    <message>
        <source>Audit log not writable</source>
        <translation>审计日志不可写</translation>
    </message>
    <message>
        <source>&amp;Add permits</source>
        <translation>增加许可(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Release permit</source>
        <translation>归还许可(&amp;R)</translation>
    </message>
</context>
<context>
    <name>LockScope::CounterLayout</name>
    <message numerus="yes">
        <source>%n to count down</source>
        <translation>
            <numerusform>还需倒数 %n</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n permit(s) free</source>
        <translation>
            <numerusform>%n 个许可空闲</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is a Redisson %2, not a lock: it is not released as one; nothing changed</source>
        <translation>%1 是 Redisson %2，不是锁：不能按锁释放；未做任何更改</translation>
    </message>
</context>
<context>
    <name>LockScope::DemoClients</name>
    <message>
        <source>watchdog holder</source>
        <translation>看门狗持有者</translation>
    </message>
    <message>
        <source>fixed-lease holder</source>
        <translation>固定租期持有者</translation>
    </message>
    <message>
        <source>waiter</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>reentrant holder</source>
        <translation>可重入持有者</translation>
    </message>
    <message>
        <source>crashing holder</source>
        <translation>会崩溃的持有者</translation>
    </message>
    <message>
        <source>client %1 (%2)</source>
        <translation>客户端 %1（%2）</translation>
    </message>
    <message>
        <source>lease %1 ms, watchdog</source>
        <translation>租期 %1 毫秒，看门狗</translation>
    </message>
    <message>
        <source>lease %1 ms</source>
        <translation>租期 %1 毫秒</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>TTL %1 ms</source>
        <translation>TTL %1 毫秒</translation>
    </message>
    <message>
        <source>%1 acquired %2 (%3)</source>
        <translation>%1 获取了 %2（%3）</translation>
    </message>
    <message>
        <source>%1 entered %2 again, count %3 (%4)</source>
        <translation>%1 再次进入 %2，计数 %3（%4）</translation>
    </message>
    <message>
        <source>%1 released one level of %2, count %3</source>
        <translation>%1 释放了 %2 的一层，计数 %3</translation>
    </message>
    <message>
        <source>%1 released %2</source>
        <translation>%1 释放了 %2</translation>
    </message>
    <message>
        <source>%1 renewed %2 to %3 ms</source>
        <translation>%1 将 %2 续期至 %3 毫秒</translation>
    </message>
    <message>
        <source>%1 lost %2: it expired or was deleted before release</source>
        <translation>%1 丢失了 %2：在释放前已过期或被删除</translation>
    </message>
    <message>
        <source>%1 lost %2: %3</source>
        <translation>%1 丢失了 %2：%3</translation>
    </message>
    <message>
        <source>%1 waits up to %2 ms for %3 (holder&apos;s %4)</source>
        <translation>%1 最多等待 %2 毫秒以获取 %3（持有者的 %4）</translation>
    </message>
    <message>
        <source>%1 gave up on %2 after %3 ms</source>
        <translation>%1 等待 %3 毫秒后放弃了 %2</translation>
    </message>
    <message>
        <source>%1 crashed while holding %2: no renewal, no release; the lease runs out</source>
        <translation>%1 在持有 %2 时崩溃：不再续期，也不释放；租期将耗尽</translation>
    </message>
    <message>
        <source>%1 failed on %2: %3</source>
        <translation>%1 在 %2 上失败：%3</translation>
    </message>
    <message>
        <source>reader</source>
        <translation>读者</translation>
    </message>
    <message>
        <source>writer</source>
        <translation>写者</translation>
    </message>
    <message>
        <source>fair-lock waiter</source>
        <translation>公平锁等待者</translation>
    </message>
    <message>
        <source>ShedLock job</source>
        <translation>ShedLock 任务</translation>
    </message>
    <message>
        <source>python-redis-lock worker</source>
        <translation>python-redis-lock 工作者</translation>
    </message>
    <message>
        <source>semaphore worker</source>
        <translation>信号量工作者</translation>
    </message>
    <message>
        <source>no lease</source>
        <translation>无租约</translation>
    </message>
    <message>
        <source>%1 waits for %2, trying again until it is free</source>
        <translation>%1 等待 %2，不断重试直到它空闲</translation>
    </message>
</context>
<context>
    <name>LockScope::DetailPane</name>
    <message>
        <source>Holders</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Fair queue</source>
        <translation>公平队列</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队者</translation>
    </message>
    <message>
        <source>Remaining wait</source>
        <translation>剩余等待</translation>
    </message>
    <message>
        <source>Timeline of the selected lock</source>
        <translation>所选锁的时间线</translation>
    </message>
    <message>
        <source>&lt;i&gt;Select a lock to see its holders, queue, evidence and history.&lt;/i&gt;</source>
        <translation>&lt;i&gt;选择一把锁，查看其持有者、队列、依据和历史。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>ours</source>
        <translation>我方</translation>
    </message>
    <message>
        <source>writer</source>
        <translation>写者</translation>
    </message>
    <message>
        <source>dead reader: its timeout keys are gone</source>
        <translation>已失效的读者：其超时键已消失</translation>
    </message>
    <message>
        <source>client %1, thread %2</source>
        <translation>客户端 %1，线程 %2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Why %1:&lt;/b&gt; %2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;为何判定为%1：&lt;/b&gt;%2&lt;/p&gt;</translation>
    </message>
    <message>
        <source>the token: the key&apos;s value, which its holder deletes it with</source>
        <translation>令牌：该键的值，持有者凭它删除该键</translation>
    </message>
    <message>
        <source>TTL %1</source>
        <translation>TTL %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2 · %3 · watchdog %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2 · %3 · 看门狗 %4</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Held by this console&lt;/b&gt; (high confidence): it took this %1 lock itself, as client %2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;由此控制台持有&lt;/b&gt;（高置信度）：这把%1锁是它以客户端 %2 的身份亲自获取的。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Held by this console&lt;/b&gt; until it ended (%1): it took this %2 lock itself, as client %3. Its history is below.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;曾由此控制台持有&lt;/b&gt;，直到结束（%1）：这把%2锁是它以客户端 %3 的身份亲自获取的。其历史见下方。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2%3 · %4 · watchdog %5 · %6 waiting (connections)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2%3 · %4 · 看门狗 %5 · %6 个等待（连接）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · %2%3 · %4 · watchdog %5 · %6 waiting (queued threads)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · %2%3 · %4 · 看门狗 %5 · %6 个等待（排队线程）</translation>
    </message>
    <message>
        <source>Whether its holders are alive</source>
        <translation>其持有者是否存活</translation>
    </message>
</context>
<context>
    <name>LockScope::EventLog</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Demo client</source>
        <translation>演示客户端</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>acquired</source>
        <translation>获取</translation>
    </message>
    <message>
        <source>reentered</source>
        <translation>重入</translation>
    </message>
    <message>
        <source>released</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>renewed</source>
        <translation>续期</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>崩溃</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>lease %1 ms, renewed by the watchdog</source>
        <translation>租期 %1 毫秒，由看门狗续期</translation>
    </message>
    <message>
        <source>fixed lease of %1 ms</source>
        <translation>固定租期 %1 毫秒</translation>
    </message>
    <message>
        <source>hold count %1; lease reset to %2 ms</source>
        <translation>持有计数 %1；租期重置为 %2 毫秒</translation>
    </message>
    <message>
        <source>one level released, count %1 left</source>
        <translation>释放了一层，剩余计数 %1</translation>
    </message>
    <message>
        <source>lock free; waiters were woken</source>
        <translation>锁已空闲；已唤醒等待者</translation>
    </message>
    <message>
        <source>lease reset to %1 ms</source>
        <translation>租期重置为 %1 毫秒</translation>
    </message>
    <message>
        <source>the lease ran out (or the lock was deleted) before a release</source>
        <translation>租期在释放前耗尽（或锁被删除）</translation>
    </message>
    <message>
        <source>held by someone else (TTL %1); waits up to %2 ms for a wake-up</source>
        <translation>被他人持有（TTL %1）；最多等待 %2 毫秒的唤醒</translation>
    </message>
    <message>
        <source>not acquired within %1 ms</source>
        <translation>%1 毫秒内未获取到</translation>
    </message>
    <message>
        <source>stopped renewing without releasing; the lease of %1 ms runs out</source>
        <translation>停止续期且未释放；%1 毫秒的租期将耗尽</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>owner %1</source>
        <translation>持有者 %1</translation>
    </message>
    <message>
        <source>no lease: held until it is given back</source>
        <translation>无租约：一直持有直到归还</translation>
    </message>
    <message>
        <source>held by someone else; tries again until it is free</source>
        <translation>被他人持有；不断重试直到它空闲</translation>
    </message>
</context>
<context>
    <name>LockScope::EventsPane</name>
    <message>
        <source>Filter events (lock, owner, event, detail)</source>
        <translation>筛选事件（锁、持有者、事件、详情）</translation>
    </message>
    <message>
        <source>Event filter</source>
        <translation>事件筛选</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
</context>
<context>
    <name>LockScope::ExplainDialog</name>
    <message>
        <source>&amp;Explain</source>
        <translation>讲述(&amp;E)</translation>
    </message>
    <message>
        <source>Explain a hold</source>
        <translation>讲述一次持有</translation>
    </message>
    <message>
        <source>Paste the error as the service logged it (Redisson&apos;s &quot;not locked by current thread&quot;, redsync&apos;s, redis-py&apos;s, python-redis-lock&apos;s), or name the holder:</source>
        <translation>粘贴服务日志中的错误（Redisson 的 &quot;not locked by current thread&quot;、redsync、redis-py、python-redis-lock 的错误），或指明持有者：</translation>
    </message>
    <message>
        <source>attempt to unlock lock, not locked by current thread by node id: … thread-id: …</source>
        <translation>attempt to unlock lock, not locked by current thread by node id: … thread-id: …</translation>
    </message>
    <message>
        <source>CLIENT:THREAD</source>
        <translation>客户端:线程</translation>
    </message>
    <message>
        <source>&amp;Holder:</source>
        <translation>持有者(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Lock:</source>
        <translation>锁(&amp;L)：</translation>
    </message>
    <message>
        <source>From the console&apos;s recording: %1</source>
        <translation>取自控制台的录制文件：%1</translation>
    </message>
    <message>
        <source>Not a message LockScope knows; name the holder or the lock.</source>
        <translation>不是 LockScope 认识的消息；请指明持有者或锁。</translation>
    </message>
    <message>
        <source>Paste the error, or name the holder or the lock.</source>
        <translation>请粘贴错误，或指明持有者或锁。</translation>
    </message>
    <message>
        <source>There is no recording yet (%1): turn on File › Record the last hour.</source>
        <translation>还没有录制文件（%1）：请打开 文件 › 录制最近一小时。</translation>
    </message>
    <message>
        <source>Reading the recording…</source>
        <translation>正在读取录制文件…</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1：</translation>
    </message>
</context>
<context>
    <name>LockScope::ExplainRequest</name>
    <message>
        <source>Redisson&apos;s unlock of a lock its thread does not hold</source>
        <translation>Redisson 解锁了其线程并未持有的锁</translation>
    </message>
    <message>
        <source>Redisson&apos;s watchdog failing to renew a lock</source>
        <translation>Redisson 看门狗未能为锁续期</translation>
    </message>
    <message>
        <source>python-redis-lock&apos;s release or extend of a lock it no longer holds</source>
        <translation>python-redis-lock 释放或延长了它已不再持有的锁</translation>
    </message>
    <message>
        <source>redbeat&apos;s scheduler lock, no longer owned</source>
        <translation>redbeat 的调度器锁，已不再归其所有</translation>
    </message>
    <message>
        <source>redis-py&apos;s lock, no longer owned</source>
        <translation>redis-py 的锁，已不再归其所有</translation>
    </message>
    <message>
        <source>redsync&apos;s unlock or extend of a lock that had expired</source>
        <translation>redsync 解锁或延长了已过期的锁</translation>
    </message>
    <message>
        <source>bsm/redislock&apos;s release of a lock no longer held</source>
        <translation>bsm/redislock 释放了已不再持有的锁</translation>
    </message>
</context>
<context>
    <name>LockScope::Explainer</name>
    <message>
        <source>the message names neither a holder nor a lock: give --owner or --lock</source>
        <translation>消息中既没有持有者也没有锁：请给出 --owner 或 --lock</translation>
    </message>
    <message>
        <source>the recording has no hold of %1 that ended%2</source>
        <translation>录制中没有 %1 的已结束持有%2</translation>
    </message>
    <message>
        <source> before %1</source>
        <translation>（%1 之前）</translation>
    </message>
    <message>
        <source>nothing of %1 is in the recording</source>
        <translation>录制中没有 %1 的任何记录</translation>
    </message>
    <message>
        <source>nothing of %1 on %2 is in the recording</source>
        <translation>录制中没有 %1 在 %2 上的任何记录</translation>
    </message>
    <message>
        <source>%1 acquired %2 at %3%4</source>
        <translation>%1 于 %3 获取了 %2%4</translation>
    </message>
    <message>
        <source> (lease %1)</source>
        <translation>（租期 %1）</translation>
    </message>
    <message>
        <source>%1 held %2 from before the recording&apos;s window (from %3)</source>
        <translation>%1 在录制窗口之前就已持有 %2（自 %3 起）</translation>
    </message>
    <message numerus="yes">
        <source>renewed %n time(s)%1, the last at %2</source>
        <translation>
            <numerusform>续期 %n 次%1，最后一次在 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>, every %1</source>
        <translation>，每 %1 一次</translation>
    </message>
    <message numerus="yes">
        <source>renewal gap of %1 at %2: %n renewal(s) missed, a pause the holder survived</source>
        <translation>
            <numerusform>%2 出现 %1 的续期间隔：错过 %n 次续期，持有者挺过了这次暂停</numerusform>
        </translation>
    </message>
    <message>
        <source>never renewed (a fixed lease): it ran out at %1, %2 after the acquire, with the work still going</source>
        <translation>从未续期（固定租期）：它在 %1 到期，即获取后 %2，而工作仍在进行</translation>
    </message>
    <message>
        <source>no renewal after %1: the lease ran out at %2, %3 later (a pause of at least that: a GC, a frozen process, a lost network)</source>
        <translation>%1 之后再无续期：租期在 %2 到期，%3 之后（至少暂停了这么久：GC、进程被冻结、网络中断）</translation>
    </message>
    <message>
        <source>the lease ran out at %1</source>
        <translation>租期在 %1 到期</translation>
    </message>
    <message>
        <source>LockScope&apos;s %1 by %2 cut the lease short%3</source>
        <translation>%2 通过 LockScope 的 %1 缩短了租期%3</translation>
    </message>
    <message>
        <source> (reason: %1)</source>
        <translation>（原因：%1）</translation>
    </message>
    <message>
        <source>force-released at %1: deleted by something other than LockScope (no audit record)</source>
        <translation>于 %1 被强制释放：由 LockScope 以外的东西删除（没有审计记录）</translation>
    </message>
    <message>
        <source>force-released at %1 by %2 with LockScope&apos;s %3%4</source>
        <translation>于 %1 由 %2 通过 LockScope 的 %3 强制释放%4</translation>
    </message>
    <message>
        <source>released by its holder at %1</source>
        <translation>于 %1 由其持有者释放</translation>
    </message>
    <message>
        <source>taken over at %1 without a release seen</source>
        <translation>于 %1 被接管，未见释放</translation>
    </message>
    <message>
        <source>lost at %1: the hold vanished under its holder</source>
        <translation>于 %1 丢失：持有在其持有者不知情时消失</translation>
    </message>
    <message>
        <source>still held when the recording ends</source>
        <translation>录制结束时仍被持有</translation>
    </message>
    <message>
        <source>%1 took the lock %2 later, at %3</source>
        <translation>%1 在 %2 之后（%3）获取了该锁</translation>
    </message>
    <message>
        <source>%1 took the lock at %2</source>
        <translation>%1 于 %2 获取了该锁</translation>
    </message>
    <message>
        <source>at %1 (the error) nothing was seen: a gap in the recording</source>
        <translation>%1（出错时）没有观察到任何东西：录制中的空白</translation>
    </message>
    <message>
        <source>at %1 (the error) nobody held it</source>
        <translation>%1（出错时）无人持有</translation>
    </message>
    <message>
        <source>at %1 (the error) it was held by %2</source>
        <translation>%1（出错时）由 %2 持有</translation>
    </message>
    <message>
        <source>the work outlived its fixed lease, which ran out at %1; whatever it did after that ran without the lock%2: a longer lease, or the watchdog (no lease), would have kept it</source>
        <translation>工作超出了固定租期，租期在 %1 到期；此后所做的一切都是在没有锁的情况下进行的%2：更长的租期或看门狗（不设租期）本可以保住它</translation>
    </message>
    <message>
        <source>, and its unlock found the hold gone</source>
        <translation>，其解锁时发现持有已不在</translation>
    </message>
    <message>
        <source>the holder stopped renewing and its lease ran out at %1; whatever it did after that ran without the lock%2</source>
        <translation>持有者停止了续期，租期在 %1 到期；此后所做的一切都是在没有锁的情况下进行的%2</translation>
    </message>
    <message>
        <source>the lock was taken from its holder at %1 by a force release%2</source>
        <translation>该锁于 %1 被强制释放，从持有者手中拿走%2</translation>
    </message>
    <message>
        <source>; its unlock came after and found nothing of its own</source>
        <translation>；其解锁在此之后，找不到属于自己的持有</translation>
    </message>
    <message>
        <source>the hold was already released by its own unlock at %1: this unlock was one too many</source>
        <translation>该持有已在 %1 由其自己的解锁释放：这次解锁是多余的一次</translation>
    </message>
    <message>
        <source>the hold ended with its own release at %1</source>
        <translation>该持有以 %1 的自行释放结束</translation>
    </message>
    <message>
        <source>another owner took the lock at %1 while this one believed it held it</source>
        <translation>另一个持有者在 %1 拿到了锁，而这一个仍以为自己持有它</translation>
    </message>
    <message>
        <source>the hold vanished at %1 before its holder released it</source>
        <translation>该持有在持有者释放之前于 %1 消失</translation>
    </message>
    <message>
        <source>the recording shows the hold still there: the unlock came from another thread or client than the one holding it (a Redisson lock belongs to its thread)</source>
        <translation>录制显示该持有仍在：解锁来自与持有者不同的线程或客户端（Redisson 锁属于获取它的线程）</translation>
    </message>
    <message>
        <source>the hold goes on</source>
        <translation>该持有仍在继续</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
</context>
<context>
    <name>LockScope::ForceReleaseDialog</name>
    <message>
        <source>Force release</source>
        <translation>强制释放</translation>
    </message>
    <message>
        <source>count %1</source>
        <translation>计数 %1</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>无 TTL</translation>
    </message>
    <message>
        <source>&amp;Force release</source>
        <translation>强制释放(&amp;F)</translation>
    </message>
    <message>
        <source>TTL %1</source>
        <translation>TTL %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;Delete &lt;b&gt;%1&lt;/b&gt; (%2, %3), held by the token &lt;tt style=&quot;white-space:nowrap&quot;&gt;%4&lt;/tt&gt;.&lt;/p&gt;&lt;p&gt;Waiters are woken as its library&apos;s own release wakes them (python-redis-lock&apos;s signal list, a Spring registry&apos;s channel); the others find it free at their next try. The real owner still believes it holds the lock: its own release will find another token and do nothing, and until then it may work next to the new holder.&lt;/p&gt;&lt;p&gt;Only deleted if the key still holds this token when the request reaches the server.&lt;/p&gt;</source>
        <translation>&lt;p&gt;删除 &lt;b&gt;%1&lt;/b&gt;（%2，%3），其持有令牌为 &lt;tt style=&quot;white-space:nowrap&quot;&gt;%4&lt;/tt&gt;。&lt;/p&gt;&lt;p&gt;等待者按其库自身的释放方式被唤醒（python-redis-lock 的信号列表、Spring 注册表的频道）；其余等待者在下次尝试时会发现它已空闲。真正的持有者仍认为自己持有该锁：它自己的释放会发现令牌已变而什么也不做，在那之前它可能与新持有者同时工作。&lt;/p&gt;&lt;p&gt;仅当请求到达服务器时该键仍保存此令牌，才会删除。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Delete &lt;b&gt;%1&lt;/b&gt; (%2%3, %4), held by:&lt;/p&gt;&lt;ul&gt;%5&lt;/ul&gt;&lt;p&gt;%6 The real owner still believes it holds the lock: its own unlock will fail later, and until then it may work next to the new holder.&lt;/p&gt;&lt;p&gt;Only deleted if the holders are still exactly these when the request reaches the server.&lt;/p&gt;</source>
        <translation>&lt;p&gt;删除 &lt;b&gt;%1&lt;/b&gt;（%2%3，%4），持有者：&lt;/p&gt;&lt;ul&gt;%5&lt;/ul&gt;&lt;p&gt;%6真正的持有者仍认为自己持有该锁：它之后的解锁会失败，在那之前它可能与新持有者同时工作。&lt;/p&gt;&lt;p&gt;仅当请求到达服务器时持有者仍恰好是这些，才会删除。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The attempt is recorded in the audit log &lt;tt&gt;%1&lt;/tt&gt;, whatever its outcome.&lt;/p&gt;</source>
        <translation>&lt;p&gt;无论结果如何，此次尝试都会记入审计日志 &lt;tt&gt;%1&lt;/tt&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Its waiters are woken as its library&apos;s release wakes them.</source>
        <translation>其等待者按其库的释放方式被唤醒。</translation>
    </message>
    <message>
        <source>Its waiters listening on %1 are woken (how many was not read).</source>
        <translation>在 %1 上监听的等待者会被唤醒（人数未读取）。</translation>
    </message>
    <message>
        <source>Nobody is listening on %1 for it: there is no waiter to wake.</source>
        <translation>%1 上没有人在等它：没有需要唤醒的等待者。</translation>
    </message>
    <message numerus="yes">
        <source>The %n waiter(s) listening on %1 are woken.</source>
        <translation>
            <numerusform>在 %1 上监听的 %n 个等待者会被唤醒。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The head of its queue of %n waiter(s), %1, is woken on its own channel %2; the others take their turns after it.</source>
        <translation>
            <numerusform>唤醒其 %n 个等待者队列的头部 %1（在它自己的频道 %2 上）；其余等待者随后依次获取。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Reason (goes into the audit record):</source>
        <translation>原因（写入审计记录）(&amp;R)：</translation>
    </message>
    <message>
        <source>e.g. INC-4711: holder pod killed</source>
        <translation>例如 INC-4711：持有者 pod 已被终止</translation>
    </message>
    <message>
        <source>This is a &lt;b&gt;production&lt;/b&gt; server. Type the lock&apos;s name to confirm:</source>
        <translation>这是一台&lt;b&gt;生产&lt;/b&gt;服务器。请键入锁的名称以确认：</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide</name>
    <message>
        <source>holds the lock</source>
        <translation>持有锁</translation>
    </message>
    <message>
        <source>did not get the lock</source>
        <translation>未获得锁</translation>
    </message>
    <message>
        <source>subscribed</source>
        <translation>已订阅</translation>
    </message>
    <message>
        <source>unsubscribed</source>
        <translation>已退订</translation>
    </message>
    <message>
        <source>sleeps until a message (no timer: the lock has no TTL)</source>
        <translation>休眠直到收到消息（没有定时器：锁没有 TTL）</translation>
    </message>
    <message>
        <source>sleeps until a message or %1 ms</source>
        <translation>休眠直到收到消息或 %1 毫秒后</translation>
    </message>
    <message>
        <source>woken by a message</source>
        <translation>被消息唤醒</translation>
    </message>
    <message>
        <source>woken by a message after %1 ms</source>
        <translation>%1 毫秒后被消息唤醒</translation>
    </message>
    <message>
        <source>woken by its timer</source>
        <translation>被自己的定时器唤醒</translation>
    </message>
    <message>
        <source>woken by its timer after %1 ms</source>
        <translation>%1 毫秒后被自己的定时器唤醒</translation>
    </message>
    <message>
        <source>a message came while nobody slept: its permit is kept</source>
        <translation>消息到达时没有人在休眠：其许可被保留</translation>
    </message>
    <message>
        <source>its wait time is spent</source>
        <translation>等待时间已用完</translation>
    </message>
    <message>
        <source>released the lock</source>
        <translation>已释放锁</translation>
    </message>
    <message>
        <source>released one level; still holds the lock</source>
        <translation>已释放一层；仍持有锁</translation>
    </message>
    <message>
        <source>the unlock was refused</source>
        <translation>解锁被拒绝</translation>
    </message>
    <message>
        <source>the reply was lost</source>
        <translation>回复丢失</translation>
    </message>
    <message>
        <source>watchdog renewal sent</source>
        <translation>已发送看门狗续期</translation>
    </message>
    <message>
        <source>the watchdog dropped the lock without a word (its renewal answered 0)</source>
        <translation>看门狗一声不响地放弃了这把锁（续期返回 0）</translation>
    </message>
    <message>
        <source>the watchdog stopped: nothing left to renew</source>
        <translation>看门狗已停止：没有需要续期的锁了</translation>
    </message>
    <message>
        <source>killed (SIGKILL)</source>
        <translation>已被杀死（SIGKILL）</translation>
    </message>
    <message>
        <source>frozen (SIGSTOP)</source>
        <translation>已冻结（SIGSTOP）</translation>
    </message>
    <message>
        <source>thawed (SIGCONT)</source>
        <translation>已解冻（SIGCONT）</translation>
    </message>
    <message>
        <source>expired: the lease ran out (no message is published)</source>
        <translation>已过期：租期耗尽（不发布任何消息）</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>absent</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source> no TTL</source>
        <translation> 无 TTL</translation>
    </message>
    <message>
        <source>runs as a process of its own</source>
        <translation>在独立的进程中运行</translation>
    </message>
    <message>
        <source>the reply was %1</source>
        <translation>回复为 %1</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>the script ran: %1</source>
        <translation>脚本执行了：%1</translation>
    </message>
    <message>
        <source>%1 is a %2</source>
        <translation>%1 是 %2</translation>
    </message>
    <message>
        <source>%1 holds %2</source>
        <translation>%1 的内容为 %2</translation>
    </message>
    <message>
        <source>%1 has a PTTL of %2 ms</source>
        <translation>%1 的 PTTL 为 %2 毫秒</translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) listen on the channel</source>
        <translation>
            <numerusform>%n 个客户端在监听该频道</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was not seen within %2 ms</source>
        <translation>%2 毫秒内未看到 %1</translation>
    </message>
    <message>
        <source>%1 has no process of its own to signal</source>
        <translation>%1 没有可以发送信号的独立进程</translation>
    </message>
    <message>
        <source>%1 happened</source>
        <translation>发生了：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::ActorLanes</name>
    <message>
        <source>Actors</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>  pid %1</source>
        <translation>  pid %1</translation>
    </message>
    <message>
        <source>; timer in %1 s</source>
        <translation>；定时器 %1 秒后到期</translation>
    </message>
    <message>
        <source>; watchdog: %1</source>
        <translation>；看门狗：%1</translation>
    </message>
    <message>
        <source>+%1 s</source>
        <translation>+%1 秒</translation>
    </message>
    <message>
        <source>two owners at once</source>
        <translation>同时有两个持有者</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::ChannelStrip</name>
    <message>
        <source>Channel</source>
        <translation>频道</translation>
    </message>
    <message numerus="yes">
        <source>%1   %n client(s) listening</source>
        <translation>
            <numerusform>%1   %n 个客户端在监听</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;%1&quot; from %2: nobody was listening</source>
        <translation>来自 %2 的“%1”：无人监听</translation>
    </message>
    <message numerus="yes">
        <source>&quot;%1&quot; from %2 → %n receiver(s)</source>
        <translation>
            <numerusform>来自 %2 的“%1” → %n 个接收者</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuideLogModel</name>
    <message>
        <source>unexpected: %1</source>
        <translation>与预期不符：%1</translation>
    </message>
    <message>
        <source>inferred from the reply and the state: this server allows no MONITOR</source>
        <translation>根据回复和状态推断：此服务器不允许使用 MONITOR</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Command or event</source>
        <translation>命令或事件</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>回复</translation>
    </message>
    <message>
        <source>Ran</source>
        <translation>已执行</translation>
    </message>
    <message>
        <source>Java sees</source>
        <translation>Java 看到的结果</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuideObserver</name>
    <message>
        <source>SCAN gave an unexpected reply</source>
        <translation>SCAN 返回了意外的回复</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuidePlayer</name>
    <message>
        <source>cannot watch the server: %1</source>
        <translation>无法监视服务器：%1</translation>
    </message>
    <message numerus="yes">
        <source>the server already holds %n guided:* key(s); the guided demo writes only guided:* keys and will not touch ones it did not write: delete them first, or use another database</source>
        <translation>
            <numerusform>服务器上已有 %n 个 guided:* 键；引导演示只写入 guided:* 键，且不会触碰不是它写入的键：请先删除它们，或使用另一个数据库</numerusform>
        </translation>
    </message>
    <message>
        <source>refused: read-only mode (the guided demo takes and releases locks)</source>
        <translation>已拒绝：只读模式（引导演示会获取和释放锁）</translation>
    </message>
    <message>
        <source>this scenario runs a client in a process of its own, and no program to start it was given</source>
        <translation>此场景要在独立的进程中运行一个客户端，但没有给出用来启动它的程序</translation>
    </message>
    <message>
        <source>this scenario runs a client in a process of its own, which cannot share the SSH tunnel: play it on the private server</source>
        <translation>此场景要在独立的进程中运行一个客户端，而该进程无法共用 SSH 隧道：请在私有服务器上演示</translation>
    </message>
    <message>
        <source>pid %1</source>
        <translation>pid %1</translation>
    </message>
    <message>
        <source>the client&apos;s process did not start within %1 s</source>
        <translation>客户端进程未在 %1 秒内启动</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuideStage</name>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>reset by reentry</source>
        <translation>因重入而重置</translation>
    </message>
    <message>
        <source>set by %1&apos;s acquire</source>
        <translation>由 %1 加锁设置</translation>
    </message>
    <message>
        <source>renewed by %1&apos;s watchdog</source>
        <translation>由 %1 的看门狗续期</translation>
    </message>
    <message>
        <source>deleted by force unlock</source>
        <translation>被强制解锁删除</translation>
    </message>
    <message>
        <source>deleted by unlock</source>
        <translation>被解锁删除</translation>
    </message>
    <message>
        <source>reset by unlock, count &gt; 0</source>
        <translation>因解锁而重置，计数 &gt; 0</translation>
    </message>
    <message>
        <source>deleted by DEL</source>
        <translation>被 DEL 删除</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <source>set</source>
        <translation>已设置</translation>
    </message>
    <message>
        <source>reset</source>
        <translation>已重置</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>a process of its own, pid %1</source>
        <translation>独立进程，pid %1</translation>
    </message>
    <message>
        <source>died with its process</source>
        <translation>已随进程一同消亡</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::GuideWindow</name>
    <message>
        <source>fast (T = 3 s)</source>
        <translation>快速（T = 3 秒）</translation>
    </message>
    <message>
        <source>normal (T = 6 s)</source>
        <translation>正常（T = 6 秒）</translation>
    </message>
    <message>
        <source>real (T = 30 s, Redisson&apos;s default)</source>
        <translation>真实（T = 30 秒，Redisson 的默认值）</translation>
    </message>
    <message>
        <source>Guided demo — LockScope</source>
        <translation>引导演示 — LockScope</translation>
    </message>
    <message>
        <source>Ready on a private redis-server at %1. Space plays, → steps.</source>
        <translation>已在位于 %1 的私有 redis-server 上就绪。按空格键播放，按 → 单步执行。</translation>
    </message>
    <message>
        <source>Cannot start a private redis-server: %1</source>
        <translation>无法启动私有 redis-server：%1</translation>
    </message>
    <message>
        <source>Starting a private redis-server…</source>
        <translation>正在启动私有 redis-server…</translation>
    </message>
    <message>
        <source>Space plays the scenario, → steps through it.</source>
        <translation>按空格键播放场景，按 → 逐步执行。</translation>
    </message>
    <message>
        <source>Scenarios</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Articles: %1</source>
        <translation>参考文章：%1</translation>
    </message>
    <message>
        <source>Wire log</source>
        <translation>命令日志</translation>
    </message>
    <message>
        <source>Narration</source>
        <translation>讲解</translation>
    </message>
    <message>
        <source>Play (Space)</source>
        <translation>播放（空格）</translation>
    </message>
    <message>
        <source>Step (→)</source>
        <translation>单步（→）</translation>
    </message>
    <message>
        <source>Restart (R)</source>
        <translation>重新开始（R）</translation>
    </message>
    <message>
        <source>Presenter (F5)</source>
        <translation>演示者模式（F5）</translation>
    </message>
    <message>
        <source>Redisson 3.24 to 4.x</source>
        <translation>Redisson 3.24 到 4.x</translation>
    </message>
    <message>
        <source>Redisson 3.22 and 3.23</source>
        <translation>Redisson 3.22 和 3.23</translation>
    </message>
    <message>
        <source>Redisson 3.10.6 to 3.21</source>
        <translation>Redisson 3.10.6 到 3.21</translation>
    </message>
    <message>
        <source>Redisson 3.10.5 and older</source>
        <translation>Redisson 3.10.5 及更早版本</translation>
    </message>
    <message>
        <source>Whose unlock the scripts reproduce</source>
        <translation>脚本重现的是哪个版本的解锁</translation>
    </message>
    <message>
        <source>Live: Redis keeps time and the TTLs run on; the next pause comes after this phase.</source>
        <translation>实时：由 Redis 计时，TTL 持续流逝；下一次暂停在此阶段结束之后。</translation>
    </message>
    <message>
        <source>Step %1 of %2 is next: → or Space</source>
        <translation>下一步是第 %1 步（共 %2 步）：按 → 或空格键</translation>
    </message>
    <message>
        <source>Playing %1 at T = %2 s</source>
        <translation>正在播放 %1，T = %2 秒</translation>
    </message>
    <message>
        <source>Live: Redis keeps time and the TTLs run on; this phase cannot pause.</source>
        <translation>实时：由 Redis 计时，TTL 持续流逝；此阶段无法暂停。</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Could not play: %1</source>
        <translation>无法播放：%1</translation>
    </message>
    <message>
        <source>Done: every step went as narrated. R plays it again, ↓ goes to the next scenario.</source>
        <translation>完成：每一步都与讲解一致。按 R 重新播放，按 ↓ 进入下一个场景。</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n step(s) went otherwise than narrated (in red).</source>
        <translation>
            <numerusform>完成：有 %n 步与讲解不符（以红色标出）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Draws on articles %1 (docs/guide.md)</source>
        <translation>参考文章 %1（docs/guide.md）</translation>
    </message>
    <message>
        <source>%1. +%2 s</source>
        <translation>%1. +%2 秒</translation>
    </message>
    <message>
        <source>What happened instead: %1</source>
        <translation>实际发生的是：%1</translation>
    </message>
    <message>
        <source>Pausing before the next step that can wait; Space plays on.</source>
        <translation>将在下一个可以等待的步骤前暂停；按空格键继续播放。</translation>
    </message>
    <message>
        <source>Paused: step %1 of %2 is next. Space plays on, → steps.</source>
        <translation>已暂停：下一步是第 %1 步（共 %2 步）。空格键继续播放，→ 单步执行。</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::LockCard</name>
    <message>
        <source>Lock card</source>
        <translation>锁卡片</translation>
    </message>
    <message>
        <source>no key</source>
        <translation>键不存在</translation>
    </message>
    <message>
        <source> (held by %1)</source>
        <translation>（持有者：%1）</translation>
    </message>
    <message>
        <source>✝ %1 at +%2 s%3</source>
        <translation>✝ +%2 秒：%1%3</translation>
    </message>
    <message>
        <source>no TTL: nothing will ever free it</source>
        <translation>无 TTL：任何机制都不会释放它</translation>
    </message>
    <message>
        <source>PTTL %1 s of %2 s</source>
        <translation>PTTL %1 秒 / %2 秒</translation>
    </message>
    <message>
        <source>%1 at +%2 s</source>
        <translation>+%2 秒：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::ProcessClient</name>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>the process of client %1 crashed</source>
        <translation>客户端 %1 的进程已崩溃</translation>
    </message>
    <message>
        <source>the process of client %1 ended (exit code %2)</source>
        <translation>客户端 %1 的进程已结束（退出码 %2）</translation>
    </message>
</context>
<context>
    <name>LockScope::Guide::RedissonClient</name>
    <message>
        <source>took a permit a message had left</source>
        <translation>取走了一条消息留下的许可</translation>
    </message>
    <message>
        <source>the script ran, but its reply never reached the client, which cannot tell whether it ran</source>
        <translation>脚本已执行，但回复始终未到达客户端，客户端无法判断它是否执行过</translation>
    </message>
    <message>
        <source>watchdog</source>
        <translation>看门狗</translation>
    </message>
    <message numerus="yes">
        <source>this client&apos;s entry for the lock is reused: no new SUBSCRIBE (shared by %n thread(s))</source>
        <translation>
            <numerusform>复用此客户端对该锁的条目：不发送新的 SUBSCRIBE（由 %n 个线程共享）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::HelpWindow</name>
    <message>
        <source>LockScope user guide</source>
        <translation>LockScope 用户指南</translation>
    </message>
    <message>
        <source>lockscope-cli reference</source>
        <translation>lockscope-cli 参考</translation>
    </message>
    <message>
        <source># Not found

%1 could not be read.</source>
        <translation># 未找到

无法读取 %1。</translation>
    </message>
</context>
<context>
    <name>LockScope::HoldChart</name>
    <message>
        <source>Who held the lock when</source>
        <translation>谁在何时持有该锁</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Scroll to zoom from 10 s to 24 h; double-click to fit the window to the holds seen</source>
        <translation>滚动滚轮在 10 秒到 24 小时之间缩放；双击使窗口适应已看到的持有</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>  (zoomed)</source>
        <translation>  （已缩放）</translation>
    </message>
    <message>
        <source>no holds in the last %1</source>
        <translation>最近 %1 内没有持有</translation>
    </message>
</context>
<context>
    <name>LockScope::HoldStory</name>
    <message>
        <source>What it means: %1.</source>
        <translation>这意味着：%1。</translation>
    </message>
</context>
<context>
    <name>LockScope::HolderWatch</name>
    <message>
        <source>node %1 did not answer CLIENT LIST: %2</source>
        <translation>节点 %1 没有回应 CLIENT LIST：%2</translation>
    </message>
    <message>
        <source>the server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>CLIENT LIST denied: %1 (a holder&apos;s connection cannot be checked; the user needs +client|list)</source>
        <translation>CLIENT LIST 被拒绝：%1（无法检查持有者的连接；该用户需要 +client|list）</translation>
    </message>
</context>
<context>
    <name>LockScope::HoldsModel</name>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>the holder crashed: nothing renews it any more</source>
        <translation>持有者已崩溃：不再有人续期</translation>
    </message>
    <message>
        <source>renewed by the watchdog every %1 ms</source>
        <translation>看门狗每 %1 毫秒续期一次</translation>
    </message>
    <message>
        <source>fixed lease, not renewed</source>
        <translation>固定租期，不续期</translation>
    </message>
    <message>
        <source>lease %1 ms; %2</source>
        <translation>租期 %1 毫秒；%2</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Owner (client id:thread)</source>
        <translation>持有者（客户端 ID:线程）</translation>
    </message>
    <message>
        <source>Demo client</source>
        <translation>演示客户端</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Lease left</source>
        <translation>剩余租期</translation>
    </message>
</context>
<context>
    <name>LockScope::HostKeyPrompt</name>
    <message>
        <source>SSH host key changed</source>
        <translation>SSH 主机密钥已更改</translation>
    </message>
    <message>
        <source>Unknown SSH host key</source>
        <translation>未知的 SSH 主机密钥</translation>
    </message>
    <message>
        <source>The SSH host %1 is not known: its key is not in %2.</source>
        <translation>SSH 主机 %1 未知：其密钥不在 %2 中。</translation>
    </message>
    <message>
        <source>Its %1 key fingerprint is:

%2

Check it with the server&apos;s administrator (ssh-keygen -l -f on the host&apos;s key) before you accept it. Accepted, it is remembered in %3.</source>
        <translation>其 %1 密钥指纹为：

%2

接受之前，请与服务器管理员核对（在主机密钥上运行 ssh-keygen -l -f）。接受后，它会记录在 %3 中。</translation>
    </message>
    <message>
        <source>&amp;Accept and connect</source>
        <translation>接受并连接(&amp;A)</translation>
    </message>
</context>
<context>
    <name>LockScope::ImportDetail</name>
    <message>
        <source>%1: no host name LockScope can connect to</source>
        <translation>%1：没有 LockScope 可以连接的主机名</translation>
    </message>
    <message>
        <source>a connection without a name</source>
        <translation>一个没有名称的连接</translation>
    </message>
</context>
<context>
    <name>LockScope::LeaseAdvice</name>
    <message>
        <source>lease too short: %1 % of holds passed ⅔ of its %2 s lease, %3 expired</source>
        <translation>租期太短：%1% 的持有超过了 %2 秒租期的 ⅔，%3 次过期</translation>
    </message>
    <message>
        <source>renewal gap %1 s at %2 (%3 renews every %4 s): a pause</source>
        <translation>%2 出现 %1 秒的续期间隔（%3 每 %4 秒续期一次）：一次暂停</translation>
    </message>
    <message>
        <source>%1 for %2 s, %3× the p95 hold</source>
        <translation>%1 %2 秒，为 p95 持有时间的 %3 倍</translation>
    </message>
    <message>
        <source>renewing</source>
        <translation>持续续期</translation>
    </message>
    <message>
        <source>held</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>clients renew on different watchdog timeouts (%1 s to %2 s): one may lose the lock the other would keep</source>
        <translation>各客户端的看门狗超时不同（%1 秒到 %2 秒）：一方可能丢掉另一方能保住的锁</translation>
    </message>
</context>
<context>
    <name>LockScope::LeaseAdviceModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>renewed</source>
        <translation>续期</translation>
    </message>
    <message>
        <source>fixed</source>
        <translation>固定租期</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Holds</source>
        <translation>持有次数</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>Longest</source>
        <translation>最长</translation>
    </message>
    <message>
        <source>Lease</source>
        <translation>租期</translation>
    </message>
    <message>
        <source>Lease kept by</source>
        <translation>租期维持方式</translation>
    </message>
    <message>
        <source>Past ⅔</source>
        <translation>超过 ⅔</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>过期</translation>
    </message>
    <message>
        <source>What to change</source>
        <translation>应当调整什么</translation>
    </message>
</context>
<context>
    <name>LockScope::LeaseClientsModel</name>
    <message>
        <source>≤1.5×: %1, 1.5–3×: %2, &gt;3×: %3</source>
        <translation>≤1.5×：%1，1.5–3×：%2，&gt;3×：%3</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，于 %2</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>Renewals</source>
        <translation>续期次数</translation>
    </message>
    <message>
        <source>Renews every</source>
        <translation>续期周期</translation>
    </message>
    <message>
        <source>Watchdog timeout (inferred)</source>
        <translation>看门狗超时（推断）</translation>
    </message>
    <message>
        <source>Gaps against its period</source>
        <translation>相对其周期的间隔</translation>
    </message>
    <message>
        <source>Longest gap</source>
        <translation>最长间隔</translation>
    </message>
</context>
<context>
    <name>LockScope::LeaseView</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Lease advice</source>
        <translation>租期建议</translation>
    </message>
    <message>
        <source>&amp;Holds of:</source>
        <translation>统计范围(&amp;H)：</translation>
    </message>
    <message>
        <source>the last 15 minutes</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <source>the last hour</source>
        <translation>最近一小时</translation>
    </message>
    <message>
        <source>all of the recording</source>
        <translation>整个录制</translation>
    </message>
    <message>
        <source>There is no recording yet (%1): turn on File › Record the last hour.</source>
        <translation>还没有录制文件（%1）：请打开 文件 › 录制最近一小时。</translation>
    </message>
    <message>
        <source>Reading the recording…</source>
        <translation>正在读取录制…</translation>
    </message>
    <message>
        <source>No holds recorded in that window.</source>
        <translation>该时间范围内没有录制到持有。</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) held</source>
        <translation>
            <numerusform>%n 个锁被持有过</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n with advice</source>
        <translation>
            <numerusform>%n 个有建议</numerusform>
        </translation>
    </message>
    <message>
        <source>from %1 to %2, from the console&apos;s recording %3</source>
        <translation>从 %1 到 %2，取自控制台的录制 %3</translation>
    </message>
    <message>
        <source>%1: nothing to change.</source>
        <translation>%1：无需调整。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::LivenessText</name>
    <message>
        <source>Are its holders alive?</source>
        <translation>其持有者是否存活？</translation>
    </message>
    <message>
        <source>Is its holder alive?</source>
        <translation>其持有者是否存活？</translation>
    </message>
    <message>
        <source>Its holder is still working: releasing it lets another client in beside it, and both act as if each alone held the lock.</source>
        <translation>其持有者仍在工作：释放它会让另一个客户端同时进入，两者都会以为只有自己持有这把锁。</translation>
    </message>
    <message>
        <source>Its holder is most likely gone: nobody will release this lock, and releasing it lets its waiters in now rather than when its lease runs out.</source>
        <translation>其持有者很可能已不在：不会有人释放这把锁；现在释放它，等待者即可立即进入，而不必等到租期耗尽。</translation>
    </message>
    <message>
        <source>Nothing seen says for certain whether its holder is alive: release it only if you know that it is gone or stuck (Tools › Trace clients names its connection).</source>
        <translation>目前所见无法确定其持有者是否存活：只有在确知它已不在或已卡住时才释放（工具 › 跟踪客户端可以找出它的连接）。</translation>
    </message>
    <message>
        <source>Connection: not known (Tools › Trace clients names it)</source>
        <translation>连接：未知（工具 › 跟踪客户端可以找出它）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>traced at %1</source>
        <translation>跟踪于 %1</translation>
    </message>
    <message>
        <source>named after it</source>
        <translation>按其名称识别</translation>
    </message>
    <message>
        <source>open (CLIENT LIST at %1)</source>
        <translation>仍打开（CLIENT LIST 读取于 %1）</translation>
    </message>
    <message>
        <source>gone: not in CLIENT LIST since %1</source>
        <translation>已断开：自 %1 起不在 CLIENT LIST 中</translation>
    </message>
    <message>
        <source>not listed yet</source>
        <translation>尚未列出</translation>
    </message>
    <message>
        <source>Connection: %1, %2 — %3</source>
        <translation>连接：%1，%2 — %3</translation>
    </message>
    <message>
        <source>Renewals: none seen in this hold</source>
        <translation>续期：本次持有期间未见续期</translation>
    </message>
    <message>
        <source>Renewals: last %1 ago, the period not known yet</source>
        <translation>续期：上次在 %1 前，周期尚不可知</translation>
    </message>
    <message>
        <source>Renewals: last %1 ago, every %2, %3 missed</source>
        <translation>续期：上次在 %1 前，每 %2 一次，错过 %3 个周期</translation>
    </message>
    <message>
        <source>Owner changes seen: %1</source>
        <translation>观察到的持有者变更：%1 次</translation>
    </message>
    <message>
        <source>%1 more holders are not judged here (see lockscope-cli show for every one)</source>
        <translation>另有 %1 个持有者未在此判断（lockscope-cli show 会逐一判断）</translation>
    </message>
</context>
<context>
    <name>LockScope::LocalRedisServer</name>
    <message>
        <source>%1
--- redis-server log (tail) ---
%2</source>
        <translation>%1
--- redis-server 日志（末尾）---
%2</translation>
    </message>
    <message>
        <source>redis-server on port %1 exited during start-up (exit code %2)</source>
        <translation>端口 %1 上的 redis-server 在启动期间退出（退出码 %2）</translation>
    </message>
    <message>
        <source>cannot create a temporary directory: %1</source>
        <translation>无法创建临时目录：%1</translation>
    </message>
    <message>
        <source>redis-server not found on PATH (install the redis-server package)</source>
        <translation>在 PATH 中找不到 redis-server（请安装 redis-server 软件包）</translation>
    </message>
    <message>
        <source>cannot find a free loopback port</source>
        <translation>找不到空闲的回环端口</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>an asynchronous start is already in progress</source>
        <translation>异步启动已在进行中</translation>
    </message>
    <message>
        <source>redis-server on port %1 not ready after %2 ms (last probe: %3)</source>
        <translation>端口 %1 上的 redis-server 在 %2 毫秒后仍未就绪（最后一次探测：%3）</translation>
    </message>
    <message>
        <source>redis-server on port %1 exited unexpectedly (exit code %2)</source>
        <translation>端口 %1 上的 redis-server 意外退出（退出码 %2）</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::LockAtName</name>
    <message>
        <source>%1 does not exist</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <source>%1 is a string outside the string lock patterns (--string-locks, or the connection profile&apos;s), so it is no lock</source>
        <translation>%1 是字符串锁模式（--string-locks 或连接配置中的模式）之外的字符串，因此不是锁</translation>
    </message>
    <message>
        <source>%1 is a string without a TTL, an integer (a counter such as semaphore permits) or a value too long for a token: not a lock</source>
        <translation>%1 是没有 TTL 的字符串、整数（如信号量许可之类的计数器）或对令牌来说过长的值：不是锁</translation>
    </message>
    <message>
        <source>%1 is not a lock (it holds a %2)</source>
        <translation>%1 不是锁（它保存的是 %2）</translation>
    </message>
    <message>
        <source>%1; %2 refused, nothing changed</source>
        <translation>%1；已拒绝 %2，未做任何更改</translation>
    </message>
    <message>
        <source>%1 is listed as a %2, and %3 does not apply to it; nothing changed</source>
        <translation>%1 被列为%2，%3 不适用于它；未做任何更改</translation>
    </message>
    <message>
        <source>%1 holds an integer and nobody waits on it: a Redisson semaphore or count-down latch is known by its waiters, or by declaring its name (--layout-pattern redisson=%1); not a lock</source>
        <translation>%1 存放的是整数且无人在等待：Redisson 的信号量或闭锁要靠其等待者识别，或声明其名称（--layout-pattern redisson=%1）；它不是锁</translation>
    </message>
</context>
<context>
    <name>LockScope::LockClassifier</name>
    <message>
        <source>declared lock name holds a %1, not a lock hash</source>
        <translation>声明的锁名保存的是 %1，而不是锁哈希</translation>
    </message>
    <message>
        <source>owner %1 has the count &quot;%2&quot;, not a positive integer</source>
        <translation>持有者 %1 的计数为“%2”，不是正整数</translation>
    </message>
    <message>
        <source>lock-shaped, with aux keys or a declared name, but its counts are malformed</source>
        <translation>形如锁，且有辅助键或声明的名称，但计数格式错误</translation>
    </message>
    <message>
        <source>owners are &lt;uuid&gt;:&lt;decimal thread id&gt;</source>
        <translation>持有者格式为 &lt;uuid&gt;:&lt;十进制线程 ID&gt;</translation>
    </message>
    <message>
        <source>owners are &lt;uuid&gt;:&lt;token&gt; (a non-Java implementation)</source>
        <translation>持有者格式为 &lt;uuid&gt;:&lt;令牌&gt;（非 Java 实现）</translation>
    </message>
    <message>
        <source>the name matches a configured lock pattern</source>
        <translation>名称匹配已配置的锁模式</translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) listen on its wake-up channel</source>
        <translation>
            <numerusform>%n 个客户端在监听其唤醒频道</numerusform>
        </translation>
    </message>
    <message>
        <source>&quot;mode&quot; field is %1</source>
        <translation>&quot;mode&quot; 字段为 %1</translation>
    </message>
    <message>
        <source>mode is %1 but the fields say otherwise: corrupt or foreign</source>
        <translation>模式为 %1，但字段与之不符：已损坏或来自外部</translation>
    </message>
    <message>
        <source>reader %1 is dead (its timeout keys are gone) and keeps writers out until the hash expires</source>
        <translation>读者 %1 已失效（其超时键已消失），在哈希过期前会一直阻挡写者</translation>
    </message>
    <message numerus="yes">
        <source>%n owners in an exclusive lock</source>
        <translation>
            <numerusform>排他锁中有 %n 个持有者</numerusform>
        </translation>
    </message>
    <message>
        <source>a fencing token key exists</source>
        <translation>存在防护令牌键</translation>
    </message>
    <message numerus="yes">
        <source>a fair queue exists (%n waiting)</source>
        <translation>
            <numerusform>存在公平队列（%n 个等待中）</numerusform>
        </translation>
    </message>
    <message>
        <source>a transactional owner (&lt;uuid&gt;:&lt;tid&gt;:&lt;txid&gt;)</source>
        <translation>事务持有者（&lt;uuid&gt;:&lt;tid&gt;:&lt;txid&gt;）</translation>
    </message>
    <message>
        <source>the fair queue is jammed: its head&apos;s deadline has passed</source>
        <translation>公平队列已堵塞：队首的截止时间已过</translation>
    </message>
    <message numerus="yes">
        <source>%n client(s) listen on its shard channel (sharded pub/sub)</source>
        <translation>
            <numerusform>%n 个客户端在监听它的分片频道（分片发布/订阅）</numerusform>
        </translation>
    </message>
    <message>
        <source>waiters listen on both the plain (%1) and the sharded (%2) channel: a mixed fleet, where a release published on one leaves the others asleep until their TTL; publish with both</source>
        <translation>等待者同时监听普通频道（%1）和分片频道（%2）：这是混用两种模式的服务群，在一种频道上发布的释放会让另一边的等待者一直睡到 TTL 结束；请改为两者都发布</translation>
    </message>
    <message>
        <source>a string inside a configured string lock pattern</source>
        <translation>位于已配置字符串锁模式内的字符串</translation>
    </message>
    <message>
        <source>its value is the holder&apos;s token</source>
        <translation>其值为持有者的令牌</translation>
    </message>
    <message numerus="yes">
        <source>a fair queue (%n waiting) with no lock hash</source>
        <translation>
            <numerusform>没有锁哈希的公平队列（%n 个等待中）</numerusform>
        </translation>
    </message>
    <message>
        <source>the fair queue is orphaned (its lock hash is gone): every later fair acquire waits behind its head until the head&apos;s deadline passes; lockscope-cli repair-queue %1 removes dead waiters</source>
        <translation>公平队列已成孤儿（其锁哈希已不存在）：之后的每个公平获取都要排在队首之后，直到队首的截止时间过去；lockscope-cli repair-queue %1 可移除已死的等待者</translation>
    </message>
    <message>
        <source>low confidence: this may be application data that looks like a lock (%1)</source>
        <translation>低置信度：这可能是看起来像锁的应用数据（%1）</translation>
    </message>
    <message>
        <source>renewals seen: something keeps extending its TTL, as a watchdog does</source>
        <translation>已观察到续期：有程序在延长其 TTL，就像看门狗那样</translation>
    </message>
    <message>
        <source>no TTL: it never expires, and only a force release ends it (someone removed its TTL, or a foreign writer never set one); Java lock() waiters wait for a message that may never come</source>
        <translation>没有 TTL：它永不过期，只有强制释放才能结束它（有人移除了它的 TTL，或外部写入者从未设置）；Java lock() 等待者会一直等待可能永远不会到来的消息</translation>
    </message>
    <message>
        <source>a transactional write lock (&lt;uuid&gt;:&lt;tid&gt;:write:&lt;txid&gt;), taken inside a Redisson transaction</source>
        <translation>事务写锁（&lt;uuid&gt;:&lt;tid&gt;:write:&lt;txid&gt;），在 Redisson 事务中获取</translation>
    </message>
    <message>
        <source>its readers&apos; timeout keys exist</source>
        <translation>其读者的超时键存在</translation>
    </message>
    <message>
        <source>nothing but its shape vouches for it: no aux keys, no listener, no configured lock name pattern</source>
        <translation>只有形状为其佐证：没有辅助键、没有监听者、没有配置的锁名模式</translation>
    </message>
    <message>
        <source>22 characters of base64url</source>
        <translation>22 个 base64url 字符</translation>
    </message>
    <message>
        <source>&lt;machine&gt;_&lt;process id&gt;_&lt;32 hex digits&gt;</source>
        <translation>&lt;机器&gt;_&lt;进程号&gt;_&lt;32 位十六进制&gt;</translation>
    </message>
    <message>
        <source>16 letters and digits</source>
        <translation>16 个字母和数字</translation>
    </message>
    <message>
        <source>32 hex digits</source>
        <translation>32 位十六进制数字</translation>
    </message>
    <message>
        <source>24 characters of base64 without padding</source>
        <translation>24 个无填充的 base64 字符</translation>
    </message>
    <message>
        <source>32 hex digits of a time-based UUID (version 1)</source>
        <translation>基于时间的 UUID（版本 1）的 32 位十六进制数字</translation>
    </message>
    <message>
        <source>a random UUID (version 4)</source>
        <translation>随机 UUID（版本 4）</translation>
    </message>
    <message>
        <source>a UUID</source>
        <translation>一个 UUID</translation>
    </message>
    <message>
        <source>24 characters of base64 ending in ==</source>
        <translation>以 == 结尾的 24 个 base64 字符</translation>
    </message>
    <message>
        <source>ADDED:&lt;time&gt;@&lt;host&gt;</source>
        <translation>ADDED:&lt;时间&gt;@&lt;主机&gt;</translation>
    </message>
    <message>
        <source>a UUID (one per registry)</source>
        <translation>一个 UUID（每个注册表一个）</translation>
    </message>
    <message>
        <source>its name was declared as %1&apos;s</source>
        <translation>其名称被声明为属于 %1</translation>
    </message>
    <message>
        <source>no TTL: %1 takes locks without one by default</source>
        <translation>没有 TTL：%1 默认加锁时不设 TTL</translation>
    </message>
    <message>
        <source>its name has %1&apos;s prefix</source>
        <translation>其名称带有 %1 的前缀</translation>
    </message>
    <message>
        <source>the token has %1&apos;s shape: %2</source>
        <translation>令牌符合 %1 的形态：%2</translation>
    </message>
    <message>
        <source>the token does not have %1&apos;s shape (%2)</source>
        <translation>令牌不符合 %1 的形态（%2）</translation>
    </message>
    <message>
        <source>the same shape fits: %1</source>
        <translation>同样形态也符合：%1</translation>
    </message>
    <message>
        <source>never expires: it has no TTL, so if its holder died it stays locked until someone releases it</source>
        <translation>永不过期：它没有 TTL，持有者一旦崩溃，锁会一直保持，直到有人释放它</translation>
    </message>
    <message>
        <source>%1 listening on %2, where a count-down latch&apos;s waiters wait</source>
        <translation>%1 个客户端在 %2 上监听，即闭锁的等待者等待之处</translation>
    </message>
    <message numerus="yes">
        <source>its permit set %1 holds %n permit(s) taken</source>
        <translation>
            <numerusform>其许可集合 %1 中有 %n 个已占用的许可</numerusform>
        </translation>
    </message>
    <message>
        <source>only the first %1 of its %2 permits taken are shown</source>
        <translation>只显示其 %2 个已占用许可中的前 %1 个</translation>
    </message>
    <message numerus="yes">
        <source>%n permit(s) expired: Redisson gives them back at the next acquire, not before</source>
        <translation>
            <numerusform>%n 个许可已过期：Redisson 会在下一次获取时归还，在此之前不会</numerusform>
        </translation>
    </message>
    <message>
        <source>its name was declared as redisson&apos;s</source>
        <translation>其名称被声明为 redisson 的</translation>
    </message>
    <message>
        <source>an integer string: Redisson keeps a semaphore&apos;s free permits or a latch&apos;s count so</source>
        <translation>整数字符串：Redisson 以此保存信号量的空闲许可数或闭锁的计数</translation>
    </message>
    <message>
        <source>%1 listening on %2, where a semaphore&apos;s waiters wait</source>
        <translation>%1 个客户端在 %2 上监听，即信号量的等待者等待之处</translation>
    </message>
    <message>
        <source>a count-down latch looks the same while nobody waits on either</source>
        <translation>两者都无人等待时，闭锁看起来与此相同</translation>
    </message>
    <message>
        <source>a sorted set of random UUIDs scored by the time each was taken: redis-semaphore&apos;s semaphore (its limit is the clients&apos; setting, not kept in Redis)</source>
        <translation>以获取时间为分值的随机 UUID 有序集合：redis-semaphore 的信号量（其上限是客户端的设置，不保存在 Redis 中）</translation>
    </message>
    <message numerus="yes">
        <source>%n permit(s) not refreshed for over 10 s: with the default lockTimeout their holder is gone, and the next acquire drops them</source>
        <translation>
            <numerusform>%n 个许可超过 10 秒未刷新：按默认 lockTimeout，其持有者已不在，下一次获取会将其丢弃</numerusform>
        </translation>
    </message>
    <message>
        <source>its name has sidekiq-unique-jobs&apos; prefix and :LOCKED suffix</source>
        <translation>其名称带有 sidekiq-unique-jobs 的前缀和 :LOCKED 后缀</translation>
    </message>
    <message>
        <source>its fields are Sidekiq job ids with the time each was locked</source>
        <translation>其字段是 Sidekiq 作业 id，值为各自加锁的时间</translation>
    </message>
    <message>
        <source>never expires: the job&apos;s lock_ttl is not set, so if the job died without unlocking, every later job with the same arguments is dropped as a duplicate until someone deletes the digest</source>
        <translation>永不过期：该作业未设置 lock_ttl，若作业未解锁就已死亡，之后所有参数相同的作业都会被当作重复而丢弃，直到有人删除该摘要</translation>
    </message>
    <message>
        <source>no TTL: the set never expires; its library sets one on every acquire, so something removed it</source>
        <translation>没有 TTL：该集合永不过期；其库每次获取都会设置 TTL，因此是有人移除了它</translation>
    </message>
    <message>
        <source>only the first %1 of its %2 members are shown</source>
        <translation>只显示其 %2 个成员中的前 %1 个</translation>
    </message>
    <message>
        <source>a sorted set of base64 tokens scored by their expiry: Symfony&apos;s RedisStore (&quot;__write__&quot; marks an exclusive hold)</source>
        <translation>以到期时间为分值的 base64 令牌有序集合：Symfony 的 RedisStore（&quot;__write__&quot; 表示独占持有）</translation>
    </message>
    <message numerus="yes">
        <source>%n hold(s) expired: Symfony drops them at the next acquire, not before</source>
        <translation>
            <numerusform>%n 个持有已过期：Symfony 在下一次获取时才会丢弃它们</numerusform>
        </translation>
    </message>
    <message>
        <source>has a TTL</source>
        <translation>有 TTL</translation>
    </message>
    <message>
        <source>no pattern declares its name: its waiters on %1, Redisson&apos;s own channel for it, vouch for it</source>
        <translation>没有模式声明此名称：在 %1（Redisson 为它使用的频道）上的等待者表明了它的身份</translation>
    </message>
    <message>
        <source>what its owner template declares</source>
        <translation>其持有者模板所声明的形状</translation>
    </message>
    <message>
        <source>its name was declared with the owner template %1=%2</source>
        <translation>它的名称由持有者模板 %1=%2 声明</translation>
    </message>
    <message>
        <source>its value has the template&apos;s shape: owner %1</source>
        <translation>它的值符合模板的形状：持有者 %1</translation>
    </message>
    <message>
        <source>its value does not have its owner template&apos;s shape (%1): its holder cannot be read from it</source>
        <translation>它的值不符合持有者模板的形状（%1）：无法从中读出持有者</translation>
    </message>
    <message>
        <source>no TTL</source>
        <translation>没有 TTL</translation>
    </message>
</context>
<context>
    <name>LockScope::LockClient</name>
    <message>
        <source>%1 refused: read-only mode</source>
        <translation>已拒绝 %1：只读模式</translation>
    </message>
    <message>
        <source>the lock name is empty</source>
        <translation>锁名为空</translation>
    </message>
    <message>
        <source>the lock name is %1 bytes long; the limit is %2 bytes</source>
        <translation>锁名长 %1 字节；上限为 %2 字节</translation>
    </message>
    <message>
        <source>unexpected acquire reply %1</source>
        <translation>意外的获取应答 %1</translation>
    </message>
    <message>
        <source>attempt to unlock lock, not locked by current thread by node id: %1 thread-id: %2</source>
        <translation>attempt to unlock lock, not locked by current thread by node id: %1 thread-id: %2</translation>
    </message>
    <message>
        <source>this server has no sharded pub/sub (SPUBLISH, Redis 7.0 or later): publish mode &quot;both&quot; wakes waiters with plain PUBLISH only</source>
        <translation>此服务器没有分片发布/订阅（SPUBLISH，Redis 7.0 或更高版本）：发布模式“both”只用普通 PUBLISH 唤醒等待者</translation>
    </message>
    <message>
        <source>publish mode &quot;sharded&quot; needs sharded pub/sub (SPUBLISH, Redis 7.0 or later), which this server does not have; nothing was changed. Use publish mode &quot;plain&quot; or &quot;auto&quot;</source>
        <translation>发布模式“sharded”需要分片发布/订阅（SPUBLISH，Redis 7.0 或更高版本），此服务器没有；未做任何更改。请使用发布模式“plain”或“auto”</translation>
    </message>
    <message numerus="yes">
        <source>none of the %n replica(s) acknowledged the acquire within %1 ms</source>
        <translation>
            <numerusform>%1 毫秒内 %n 个副本均未确认此次获取</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, and it was already gone when it was to be undone: nothing of it is held (a failover now would give the lock to a replica that never saw it)</source>
        <translation>%1，且撤销时它已不存在：不再持有任何部分（此时发生故障转移会把锁交给从未见过它的副本）</translation>
    </message>
    <message>
        <source>%1, so it was undone (a failover now would give the lock to a replica that never saw it)</source>
        <translation>%1，因此已撤销（此时发生故障转移会把锁交给从未见过它的副本）</translation>
    </message>
    <message>
        <source>%1, and undoing it failed (%2): the hold may still be in place on the master until its lease of %3 ms runs out</source>
        <translation>%1，且撤销失败（%2）：该持有可能仍留在主节点上，直到其 %3 毫秒的租期耗尽</translation>
    </message>
</context>
<context>
    <name>LockScope::LockEventFeed</name>
    <message>
        <source>pub/sub refused: %1</source>
        <translation>发布/订阅被拒绝：%1</translation>
    </message>
    <message>
        <source>keyspace events switched off for this connection</source>
        <translation>此连接已关闭键空间事件</translation>
    </message>
    <message>
        <source>cannot read notify-keyspace-events (%1)</source>
        <translation>无法读取 notify-keyspace-events（%1）</translation>
    </message>
    <message>
        <source>the server sends no keyspace events (notify-keyspace-events is empty)</source>
        <translation>服务器不发送键空间事件（notify-keyspace-events 为空）</translation>
    </message>
    <message>
        <source>notify-keyspace-events is &quot;%1&quot;: it needs K or E with h, $, z, g and x</source>
        <translation>notify-keyspace-events 为 &quot;%1&quot;：需要 K 或 E，以及 h、$、z、g 和 x</translation>
    </message>
</context>
<context>
    <name>LockScope::LockFilterProxy</name>
    <message>
        <source>%1 (hidden by the filter)</source>
        <translation>%1（被筛选条件隐藏）</translation>
    </message>
    <message>
        <source>%1
Shown because it is the selected lock, which the filter hides: the actions act on it. Select another lock and it goes.</source>
        <translation>%1
因为它是选中的锁而显示，筛选条件本会隐藏它：各项操作作用于它。选择另一个锁后它就会消失。</translation>
    </message>
</context>
<context>
    <name>LockScope::LockLayout</name>
    <message numerus="yes">
        <source>%n permit(s) taken</source>
        <translation>
            <numerusform>已占用 %n 个许可</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::LockScanner</name>
    <message>
        <source>node %1:%2 could not be read: %3</source>
        <translation>无法读取节点 %1:%2：%3</translation>
    </message>
</context>
<context>
    <name>LockScope::LockTableModel</name>
    <message>
        <source>reentrant</source>
        <translation>可重入</translation>
    </message>
    <message>
        <source>fair</source>
        <translation>公平</translation>
    </message>
    <message>
        <source>read-write</source>
        <translation>读写</translation>
    </message>
    <message>
        <source>fenced</source>
        <translation>栅栏</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>likely</source>
        <translation>可能有</translation>
    </message>
    <message>
        <source>no</source>
        <translation>无</translation>
    </message>
    <message>
        <source> (write)</source>
        <translation>（写）</translation>
    </message>
    <message numerus="yes">
        <source>%n holder(s)</source>
        <translation>
            <numerusform>%n 个持有者</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (count %2)</source>
        <translation>%1（计数 %2）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Holders</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>Watchdog</source>
        <translation>看门狗</translation>
    </message>
    <message>
        <source>Waiters</source>
        <translation>等待者</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>持有时长</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source> (ours)</source>
        <translation>（我方）</translation>
    </message>
    <message>
        <source>string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>token %1: the key&apos;s value, which its holder deletes it with</source>
        <translation>令牌 %1：该键的值，持有者凭它删除该键</translation>
    </message>
    <message>
        <source>A string lock has no wake-up channel: its waiters retry on their own and cannot be seen</source>
        <translation>字符串锁没有唤醒频道：其等待者自行重试，无法被看到</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>count-down latch</source>
        <translation>闭锁</translation>
    </message>
    <message>
        <source>expirable semaphore</source>
        <translation>可过期信号量</translation>
    </message>
    <message>
        <source>semaphore</source>
        <translation>信号量</translation>
    </message>
    <message>
        <source>semaphore (zset)</source>
        <translation>信号量（有序集合）</translation>
    </message>
    <message>
        <source>unique job</source>
        <translation>唯一作业</translation>
    </message>
    <message>
        <source>lock (zset)</source>
        <translation>锁（有序集合）</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读</translation>
    </message>
    <message>
        <source>write</source>
        <translation>写</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>force-released</source>
        <translation>已强制释放</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已消失</translation>
    </message>
    <message>
        <source>on (ours)</source>
        <translation>开（我方）</translation>
    </message>
    <message>
        <source>off (ours)</source>
        <translation>关（我方）</translation>
    </message>
    <message>
        <source>This lock is gone; its row stays a moment, and while it is selected.</source>
        <translation>此锁已消失；它的行会保留片刻，被选中时一直保留。</translation>
    </message>
    <message>
        <source>; the longest wait going on: %1</source>
        <translation>；当前最长的等待：%1</translation>
    </message>
    <message>
        <source>Waits: about %1 on average (waiter-time over acquisitions; no single wait seen)</source>
        <translation>等待：平均约 %1（等待者时间除以获取次数；未观察到单次等待）</translation>
    </message>
    <message>
        <source>Waits: p50 %1, p95 %2, max %3</source>
        <translation>等待：p50 %1，p95 %2，最大 %3</translation>
    </message>
    <message numerus="yes">
        <source>%n wait(s) timed from the fair queue&apos;s entries (threads)</source>
        <translation>
            <numerusform>%n 次等待，按公平队列的条目计时（线程）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n wait(s) timed from subscriptions to its wake-up channel (connections: a JVM has one whatever its waiting threads; inferred)</source>
        <translation>
            <numerusform>%n 次等待，按对其唤醒频道的订阅计时（连接：一个 JVM 无论有多少等待线程都只有一个订阅；推断值）</numerusform>
        </translation>
    </message>
    <message>
        <source>Who waits for it: a lock with a queue (a fair lock) counts its queued threads; any other counts the connections subscribed to its wake-up channel, and a JVM subscribes once whatever its waiting threads</source>
        <translation>谁在等待它：有队列的锁（公平锁）计算排队的线程；其他锁计算订阅其唤醒频道的连接，一个 JVM 无论有多少等待线程都只订阅一次</translation>
    </message>
    <message>
        <source>Waits: none ended yet</source>
        <translation>等待：尚无结束的等待</translation>
    </message>
    <message>
        <source>%1 / ?</source>
        <translation>%1 / ?</translation>
    </message>
    <message>
        <source>%1 / %2 · %3 late</source>
        <translation>%1 / %2 · 逾期 %3</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No renewal seen in this hold: a fixed lease, a hold that began moments ago, or a watchdog that never ran while watched</source>
        <translation>本次持有期间未见续期：固定租期、刚开始的持有，或在观察期间从未运行过的看门狗</translation>
    </message>
    <message>
        <source>Last renewed %1 ago; the period between renewals is not known yet (a second renewal tells it)</source>
        <translation>上次续期在 %1 前；续期周期尚不可知（再续期一次即可得知）</translation>
    </message>
    <message>
        <source>Last renewed %1 ago, renewed every %2 before: the next renewal is %3 periods overdue. A watchdog that stops renewing belongs to a holder that is paused or gone</source>
        <translation>上次续期在 %1 前，此前每 %2 续期一次：下一次续期已逾期 %3 个周期。看门狗停止续期，说明其持有者已暂停或已不在</translation>
    </message>
    <message>
        <source>Last renewed %1 ago, renewed every %2: on time</source>
        <translation>上次续期在 %1 前，每 %2 续期一次：按时</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>  • %1</source>
        <translation>  • %1</translation>
    </message>
    <message>
        <source>(%1 more holders not judged here: the detail pane judges each)</source>
        <translation>（另有 %1 个持有者未在此判断：详情面板逐一判断）</translation>
    </message>
    <message>
        <source>Whether its holder is alive, likely dead or unknown, from its renewals, its connection (CLIENT LIST, and a trace: Tools › Trace clients) and its process; with several holders, the worst. Its tooltip gives the evidence</source>
        <translation>其持有者是存活、可能已死亡还是未知：依据其续期、其连接（CLIENT LIST，以及跟踪：工具 › 跟踪客户端）和其进程判断；有多个持有者时取最差者。单元格的提示给出证据</translation>
    </message>
    <message>
        <source>How long ago its lease was last renewed, against the period seen between renewals; late when the next renewal is a whole period overdue or more</source>
        <translation>其租期上次续期距今多久，以及观察到的续期周期；下一次续期逾期整整一个周期或更多时标为逾期</translation>
    </message>
    <message>
        <source>Renewed</source>
        <translation>续期</translation>
    </message>
    <message>
        <source>Liveness</source>
        <translation>存活状态</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
</context>
<context>
    <name>LockScope::LockTimelineModel</name>
    <message>
        <source>acquired</source>
        <translation>已获取</translation>
    </message>
    <message>
        <source>reentered</source>
        <translation>重入</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>renewed</source>
        <translation>已续期</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>force-released</source>
        <translation>已强制释放</translation>
    </message>
    <message>
        <source>owner changed</source>
        <translation>持有者变更</translation>
    </message>
    <message>
        <source>queue changed</source>
        <translation>队列变化</translation>
    </message>
    <message>
        <source>%1 (before: %2)</source>
        <translation>%1（之前：%2）</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>TTL (ms)</source>
        <translation>TTL（毫秒）</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>wake-up missed</source>
        <translation>唤醒丢失</translation>
    </message>
</context>
<context>
    <name>LockScope::LockTracker</name>
    <message>
        <source>renewals failing: TTL %1 ms is below 2/3 of its %2 ms lease; the holder&apos;s watchdog may have stopped while it still works under the lock</source>
        <translation>续期失败：TTL %1 毫秒低于 %2 毫秒租期的 2/3；持有者的看门狗可能已停止，而它仍在锁内工作</translation>
    </message>
    <message>
        <source>the lease ran out</source>
        <translation>租期已到</translation>
    </message>
    <message numerus="yes">
        <source>deleted without an unlock (%n level(s) held): its owner&apos;s unlock will fail</source>
        <translation>
            <numerusform>未经解锁即被删除（仍持有 %n 层）：其持有者之后的解锁将失败</numerusform>
        </translation>
    </message>
    <message>
        <source>deleted without a wake-up message: waiters sleep until their own timeout</source>
        <translation>被删除但未发送唤醒消息：等待者会一直睡到各自超时</translation>
    </message>
    <message>
        <source>%1 took over from %2, whose hold ended without a release</source>
        <translation>%1 接替了 %2，后者的持有未经释放就结束了</translation>
    </message>
    <message>
        <source>owner changed from %1 without a release: its lease ran out while it may still believe it holds the lock (possible double holder)</source>
        <translation>持有者从 %1 变更且未见释放：其租期已到，而它可能仍以为自己持有锁（可能出现双重持有）</translation>
    </message>
    <message numerus="yes">
        <source>%n level(s) still held</source>
        <translation>
            <numerusform>仍持有 %n 层</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 took over from %2 without a release</source>
        <translation>%1 在未见释放的情况下接替了 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n waiting</source>
        <translation>
            <numerusform>%n 个等待中</numerusform>
        </translation>
    </message>
    <message>
        <source>seen with a fair queue before (an idle fair lock looks like a reentrant one)</source>
        <translation>之前曾见到公平队列（空闲的公平锁看起来像可重入锁）</translation>
    </message>
    <message>
        <source>renewed %1 later than its usual %2</source>
        <translation>续期比通常的 %2 晚了 %1</translation>
    </message>
</context>
<context>
    <name>LockScope::LockWaiters</name>
    <message>
        <source>the lock client shut down while waiting</source>
        <translation>锁客户端在等待期间已关闭</translation>
    </message>
</context>
<context>
    <name>LockScope::LocksPane</name>
    <message>
        <source>live: keyspace events</source>
        <translation>实时：键空间事件</translation>
    </message>
    <message>
        <source>live: wake-up messages + periodic re-scan</source>
        <translation>实时：唤醒消息 + 定期重新扫描</translation>
    </message>
    <message>
        <source>periodic re-scan only</source>
        <translation>仅定期重新扫描</translation>
    </message>
    <message>
        <source>scanning…</source>
        <translation>扫描中…</translation>
    </message>
    <message>
        <source>Filter by name (glob, e.g. orders:*)</source>
        <translation>按名称筛选（通配符，例如 orders:*）</translation>
    </message>
    <message>
        <source>Lock name filter</source>
        <translation>锁名筛选</translation>
    </message>
    <message>
        <source>Lock kind filter</source>
        <translation>锁类型筛选</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <source>Client filter: one client&apos;s whole footprint</source>
        <translation>客户端筛选：某个客户端持有的全部锁</translation>
    </message>
    <message>
        <source>All clients</source>
        <translation>所有客户端</translation>
    </message>
    <message>
        <source>Locks</source>
        <translation>锁</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n lock(s))</source>
        <translation>
            <numerusform>%1（%n 把锁）</numerusform>
        </translation>
    </message>
    <message>
        <source>Locks: %1 · %2</source>
        <translation>锁：%1 · %2</translation>
    </message>
    <message>
        <source>Disconnected since %1: the rows below are as last read then, and their TTLs may be over.</source>
        <translation>自 %1 起连接断开：下面各行是当时最后读到的状态，其 TTL 可能已经耗尽。</translation>
    </message>
    <message>
        <source>Not connected since %1: nothing has been read from this server yet.</source>
        <translation>自 %1 起未连接：尚未从该服务器读取任何内容。</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
</context>
<context>
    <name>LockScope::MainWindow</name>
    <message>
        <source>LockScope</source>
        <translation>LockScope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About LockScope</source>
        <translation>关于 LockScope(&amp;A)</translation>
    </message>
    <message>
        <source>About LockScope</source>
        <translation>关于 LockScope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;LockScope %1&lt;/h3&gt;&lt;p&gt;A monitor and console for Redisson-style distributed locks in Redis.&lt;/p&gt;&lt;p&gt;Lease countdowns are computed from the time of the last acquire or renewal plus the lease, on a monotonic clock.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;LockScope %1&lt;/h3&gt;&lt;p&gt;Redis 中 Redisson 风格分布式锁的监视器与控制台。&lt;/p&gt;&lt;p&gt;租期倒计时由最近一次获取或续期的时刻加上租期算出，使用单调时钟。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>LockScope — %1</source>
        <translation>LockScope — %1</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>No events yet</source>
        <translation>暂无事件</translation>
    </message>
    <message>
        <source>Demo clients</source>
        <translation>演示客户端</translation>
    </message>
    <message>
        <source>Actions</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Demo holds</source>
        <translation>演示持有</translation>
    </message>
    <message>
        <source>What the clients do</source>
        <translation>客户端在做什么</translation>
    </message>
    <message>
        <source>Their holds</source>
        <translation>它们的持有</translation>
    </message>
    <message>
        <source>Show this &amp;client&apos;s locks</source>
        <translation>显示此客户端的锁(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Lock</source>
        <translation>锁(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Clear demo log</source>
        <translation>清空演示日志(&amp;C)</translation>
    </message>
    <message>
        <source>Demo: %1 holds · %2 waiting · %3 events</source>
        <translation>演示：%1 个持有 · %2 个等待 · %3 个事件</translation>
    </message>
    <message>
        <source>&amp;Find a lock…</source>
        <translation>查找锁(&amp;F)…</translation>
    </message>
    <message>
        <source>Contention</source>
        <translation>争用</translation>
    </message>
    <message>
        <source>No statistics yet</source>
        <translation>尚无统计</translation>
    </message>
    <message>
        <source>%1 is not in the table now (filtered out, or gone)</source>
        <translation>%1 现在不在表中（被过滤掉，或已消失）</translation>
    </message>
    <message>
        <source>Connected through</source>
        <translation>连接方式</translation>
    </message>
    <message>
        <source>Quit LockScope</source>
        <translation>退出 LockScope</translation>
    </message>
    <message numerus="yes">
        <source>This console holds %n lock(s): %1.</source>
        <translation>
            <numerusform>此控制台持有 %n 把锁：%1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Release them before quitting? Otherwise each is held until its lease runs out (its watchdog stops with the console), and waiters wait that long.</source>
        <translation>退出前释放它们吗？否则每把锁都会一直被持有到租期耗尽（看门狗随控制台一同停止），等待者也要等那么久。</translation>
    </message>
    <message>
        <source>&amp;Release and quit</source>
        <translation>释放并退出(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit without releasing</source>
        <translation>不释放直接退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Releasing this console&apos;s locks before quitting…</source>
        <translation>正在退出前释放此控制台的锁…</translation>
    </message>
    <message numerus="yes">
        <source>%n lock(s) could not be released; not quitting</source>
        <translation>
            <numerusform>%n 把锁无法释放；不退出</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Audit log…</source>
        <translation>审计日志(&amp;A)…</translation>
    </message>
    <message>
        <source>disconnected: %1; reconnecting</source>
        <translation>已断开：%1；正在重连</translation>
    </message>
    <message>
        <source>disconnected: %1; not retrying</source>
        <translation>已断开：%1；不再重试</translation>
    </message>
    <message>
        <source>disconnected: %1; reconnecting now</source>
        <translation>已断开：%1；正在重连</translation>
    </message>
    <message>
        <source>disconnected: %1; retrying in %2 s</source>
        <translation>已断开：%1；%2 秒后重试</translation>
    </message>
    <message>
        <source>failed: not retrying</source>
        <translation>失败：不再重试</translation>
    </message>
    <message>
        <source>failed: %1; not retrying</source>
        <translation>失败：%1；不再重试</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>演示(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Guided demo…</source>
        <translation>引导演示(&amp;G)…</translation>
    </message>
    <message>
        <source>| Key | Does |
|---|---|
</source>
        <translation>| 按键 | 作用 |
|---|---|
</translation>
    </message>
    <message>
        <source>
In a dialog that changes something (force release, a permit, a latch), Return and Enter press Cancel; only a click, or Tab to the button and Space, acts. No such button has an Alt+letter.
</source>
        <translation>
在会更改内容的对话框中（强制释放、许可、闭锁），Return 和 Enter 都按下“取消”；只有点击，或用 Tab 移到按钮再按空格，才会执行。这类按钮都没有 Alt+字母快捷键。
</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>lockscope-cli &amp;reference</source>
        <translation>lockscope-cli 参考(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Trace clients…</source>
        <translation>跟踪客户端(&amp;T)…</translation>
    </message>
    <message>
        <source>Trace done: the holders&apos; connections are named in the detail pane and in Force release</source>
        <translation>跟踪完成：详情面板和强制释放中已标出持有者的连接</translation>
    </message>
    <message>
        <source>Blockers</source>
        <translation>阻塞</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>PRODUCTION</source>
        <translation>生产</translation>
    </message>
    <message>
        <source>E&amp;xplain this holder&apos;s story…</source>
        <translation>讲述此持有者的经过(&amp;X)…</translation>
    </message>
    <message>
        <source>&amp;Explain a hold…</source>
        <translation>讲述一次持有(&amp;E)…</translation>
    </message>
    <message>
        <source>Open &amp;recording…</source>
        <translation>打开录制文件(&amp;R)…</translation>
    </message>
    <message>
        <source>Open a recording</source>
        <translation>打开录制文件</translation>
    </message>
    <message>
        <source>LockScope recordings (*.sqlite *.db);;All files (*)</source>
        <translation>LockScope 录制文件 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Replay the &amp;last hour</source>
        <translation>回放最近一小时(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Lease advice…</source>
        <translation>租期建议(&amp;L)…</translation>
    </message>
    <message>
        <source>Open a s&amp;hared recording…</source>
        <translation>打开共享录制(&amp;H)…</translation>
    </message>
    <message>
        <source>Open a shared recording</source>
        <translation>打开共享录制</translation>
    </message>
    <message>
        <source>The PostgreSQL database the recorders write to (the password from ~/.pgpass or PGPASSWORD):</source>
        <translation>录制器写入的 PostgreSQL 数据库（密码取自 ~/.pgpass 或 PGPASSWORD）：</translation>
    </message>
</context>
<context>
    <name>LockScope::Ops</name>
    <message>
        <source>%1 is held by token %2, not %3; it was left alone</source>
        <translation>%1 由令牌 %2 持有，而不是 %3；未作改动</translation>
    </message>
    <message numerus="yes">
        <source>added %n permit(s) to %1: %2 free now; its waiters told on %3</source>
        <translation>
            <numerusform>已向 %1 增加 %n 个许可：现有 %2 个空闲；已在 %3 上通知其等待者</numerusform>
        </translation>
    </message>
    <message>
        <source>released permit %1 of %2: %3 free now; its waiters told on %4</source>
        <translation>已归还 %2 的许可 %1：现有 %3 个空闲；已在 %4 上通知其等待者</translation>
    </message>
    <message>
        <source>opened %1 (its count was %2); every waiter told on %3</source>
        <translation>已打开 %1（其计数为 %2）；已在 %3 上通知所有等待者</translation>
    </message>
    <message>
        <source>%1 has no permit %2 taken; nothing changed</source>
        <translation>%1 没有被占用的许可 %2；未做任何更改</translation>
    </message>
    <message>
        <source>%1 counted on after it was shown (count %2, now %3); nothing changed</source>
        <translation>%1 在显示后计数已变化（原为 %2，现为 %3）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 was already gone (opened, or never set); nothing changed</source>
        <translation>%1 已不存在（已打开，或从未设置）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 was already gone; nothing changed</source>
        <translation>%1 已不存在；未做任何更改</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>无人</translation>
    </message>
    <message>
        <source>%1 is no longer held by %2 (now by %3); nothing changed</source>
        <translation>%1 已不再由 %2 持有（现在由 %3 持有）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 changed after it was shown (held by %2, now by %3); nothing changed</source>
        <translation>%1 在显示之后已改变（原由 %2 持有，现由 %3 持有）；未做任何更改</translation>
    </message>
    <message>
        <source>force-released %1; nobody was waiting on %2</source>
        <translation>已强制释放 %1；没有人在 %2 上等待</translation>
    </message>
    <message numerus="yes">
        <source>force-released %1; the %n waiter(s) on %2 were woken</source>
        <translation>
            <numerusform>已强制释放 %1；已唤醒 %2 上的 %n 个等待者</numerusform>
        </translation>
    </message>
    <message>
        <source>force-released %1; waiters woken</source>
        <translation>已强制释放 %1；已唤醒等待者</translation>
    </message>
    <message>
        <source>force-released %1; its library&apos;s waiters woken through %2</source>
        <translation>已强制释放 %1；已通过 %2 唤醒其所属库的等待者</translation>
    </message>
    <message>
        <source>force-released %1 (a %2 lock: there are no waiters to wake)</source>
        <translation>已强制释放 %1（%2 锁：没有需要唤醒的等待者）</translation>
    </message>
    <message>
        <source>released one level of %1 for %2; still held (count %3)</source>
        <translation>已代 %2 释放 %1 的一层；仍被持有（计数 %3）</translation>
    </message>
    <message>
        <source>released %1 for %2; waiters woken</source>
        <translation>已代 %2 释放 %1；已唤醒等待者</translation>
    </message>
    <message>
        <source>released %1 for %2; its library&apos;s waiters woken through %3</source>
        <translation>已代 %2 释放 %1；已通过 %3 唤醒其所属库的等待者</translation>
    </message>
    <message>
        <source>released %1 for %2 (a %3 lock: there are no waiters to wake)</source>
        <translation>已代 %2 释放 %1（%3 锁：没有需要唤醒的等待者）</translation>
    </message>
    <message numerus="yes">
        <source>force-released %1; the head of its queue of %n waiter(s) was woken on its own channel</source>
        <translation>
            <numerusform>已强制释放 %1；已在其 %n 个等待者队列头部自己的频道上唤醒它</numerusform>
        </translation>
    </message>
    <message>
        <source>released %1 for %2; nobody was waiting on %3</source>
        <translation>已代 %2 释放 %1；%3 上没有等待者</translation>
    </message>
    <message numerus="yes">
        <source>released %1 for %2; the %n waiter(s) listening on %3 were woken</source>
        <translation>
            <numerusform>已代 %2 释放 %1；已唤醒监听 %3 的 %n 个等待者</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 changed after it was shown: %2</source>
        <translation>%1 在显示之后已改变：%2</translation>
    </message>
    <message>
        <source>%1 is not held by %2 (held by %3); nothing changed</source>
        <translation>%1 并非由 %2 持有（持有者为 %3）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 changed after it was shown (the same holders, but it is no longer a %2 lock); nothing changed</source>
        <translation>%1 在显示之后已改变（持有者相同，但它已不再是 %2 锁）；未做任何更改</translation>
    </message>
    <message>
        <source>--enable-keyspace-events refused: read-only mode (it runs CONFIG SET)</source>
        <translation>--enable-keyspace-events 被拒绝：只读模式（它会执行 CONFIG SET）</translation>
    </message>
    <message>
        <source>%1 now expires in %2 ms unless its holder renews it (it had no lease)</source>
        <translation>%1 将在 %2 毫秒后过期，除非其持有者续期（此前没有租期）</translation>
    </message>
    <message>
        <source>%1 now expires in %2 ms unless its holder renews it (it had %3 ms left)</source>
        <translation>%1 将在 %2 毫秒后过期，除非其持有者续期（此前剩余 %3 毫秒）</translation>
    </message>
    <message>
        <source>%1 changed after it was shown (its lease or kind is not what was shown); nothing changed</source>
        <translation>%1 在显示之后已改变（其租期或类型与所显示的不同）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 is a %2 lock: each of its holds expires on its own, there is no one lease to set; nothing changed</source>
        <translation>%1 是 %2 锁：它的每个持有各自过期，没有统一的租期可设置；未做任何更改</translation>
    </message>
    <message>
        <source>--lease takes a number of milliseconds above 0</source>
        <translation>--lease 需要一个大于 0 的毫秒数</translation>
    </message>
    <message>
        <source>%1 already has %2 ms of its lease left, at least the %3 ms asked: a lease is never shortened; nothing changed</source>
        <translation>%1 的租期还剩 %2 毫秒，不少于所要求的 %3 毫秒：租期绝不缩短；未做任何更改</translation>
    </message>
    <message numerus="yes">
        <source>released %n item(s) of %1 as their libraries would, waking their waiters</source>
        <translation>
            <numerusform>已按各库的方式释放 %1 的 %n 项，并唤醒了其等待者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n had changed since they were shown and were left alone</source>
        <translation>
            <numerusform>；%n 项在显示之后已改变，未予处理</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n failed</source>
        <translation>
            <numerusform>；%n 项失败</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 looks alive: %2; releasing a live holder breaks the exclusion it relies on, so nothing was released (insist with --even-if-alive once you know it is gone)</source>
        <translation>%1 看起来仍然存活：%2；释放存活的持有者会破坏它所依赖的互斥，因此未释放任何东西（确知它已不在后，可用 --even-if-alive 坚持释放）</translation>
    </message>
    <message numerus="yes">
        <source>reaped %n lock hold(s) as their libraries would, waking their waiters</source>
        <translation>
            <numerusform>已按各自的库的方式回收 %n 个锁持有，并唤醒了等待者</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n had changed since the report and were left alone</source>
        <translation>
            <numerusform>；%n 个自报告以来已有变化，未做处理</numerusform>
        </translation>
    </message>
    <message>
        <source>not in the approved report</source>
        <translation>不在已批准的报告中</translation>
    </message>
    <message>
        <source>changed before its release: %1</source>
        <translation>释放前已有变化：%1</translation>
    </message>
    <message>
        <source>over this run&apos;s quota now</source>
        <translation>现已超出本次运行的配额</translation>
    </message>
    <message>
        <source>its name is protected</source>
        <translation>其名称受保护</translation>
    </message>
    <message>
        <source>changed since the report (now %1, count %2)</source>
        <translation>自报告以来已有变化（现为 %1，计数 %2）</translation>
    </message>
    <message>
        <source>changed since the report: gone, held by someone else, or its rule&apos;s signals no longer all hold</source>
        <translation>自报告以来已有变化：已不存在、被他人持有，或其规则的信号不再全部成立</translation>
    </message>
</context>
<context>
    <name>LockScope::OwnHolds</name>
    <message>
        <source>this console switched its watchdog off for this hold (Ctrl+W): nothing renews the lease</source>
        <translation>本控制台已关闭此持有的看门狗（Ctrl+W）：没有任何东西续租</translation>
    </message>
    <message>
        <source>this console switched its watchdog off for this hold (Ctrl+W): the lease runs out in %1 unless it is switched on again</source>
        <translation>本控制台已关闭此持有的看门狗（Ctrl+W）：除非重新打开，租约将在 %1 后到期</translation>
    </message>
</context>
<context>
    <name>LockScope::OwnerTemplate</name>
    <message>
        <source>an owner template is GLOB=SPEC (got &quot;%1&quot;)</source>
        <translation>持有者模板的格式是 GLOB=SPEC（收到“%1”）</translation>
    </message>
    <message>
        <source>the owner template&apos;s regex does not compile: %1</source>
        <translation>持有者模板的正则表达式无法编译：%1</translation>
    </message>
    <message>
        <source>the owner template&apos;s regex needs a group named owner: (?&lt;owner&gt;...)</source>
        <translation>持有者模板的正则表达式需要一个名为 owner 的分组：(?&lt;owner&gt;...)</translation>
    </message>
    <message>
        <source>an owner template says where the owner is: value, json:$.path or regex:PATTERN (got &quot;%1&quot;)</source>
        <translation>持有者模板要说明持有者在哪里：value、json:$.path 或 regex:PATTERN（收到“%1”）</translation>
    </message>
    <message>
        <source>the owner template&apos;s item &quot;%1&quot; has no value</source>
        <translation>持有者模板的项“%1”没有值</translation>
    </message>
    <message>
        <source>%1= takes a JSON path ($.field) in a json: template</source>
        <translation>在 json: 模板中，%1= 的值是 JSON 路径（$.field）</translation>
    </message>
    <message>
        <source>heartbeat-age takes seconds (got &quot;%1&quot;)</source>
        <translation>heartbeat-age 的值是秒数（收到“%1”）</translation>
    </message>
    <message>
        <source>queue= takes KEY:value or KEY:json:$.path (got &quot;%1&quot;)</source>
        <translation>queue= 的值是 KEY:value 或 KEY:json:$.path（收到“%1”）</translation>
    </message>
    <message>
        <source>queue= needs a key before its format</source>
        <translation>queue= 在格式前需要一个键</translation>
    </message>
    <message>
        <source>the owner template has an unknown item &quot;%1&quot; (host, pid, since, run, heartbeat, heartbeat-age, queue)</source>
        <translation>持有者模板有未知的项“%1”（可用：host、pid、since、run、heartbeat、heartbeat-age、queue）</translation>
    </message>
</context>
<context>
    <name>LockScope::PermitSetLayout</name>
    <message numerus="yes">
        <source>%n permit(s) taken</source>
        <translation>
            <numerusform>已占用 %n 个许可</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReapApproval</name>
    <message>
        <source>--approve takes the report&apos;s sha256 (64 hex digits) or the file a dry run wrote; %1: %2</source>
        <translation>--approve 的值是报告的 sha256（64 位十六进制数）或演练写出的文件；%1：%2</translation>
    </message>
    <message>
        <source>%1 is not a dry run&apos;s report: a line is not a JSON object (%2)</source>
        <translation>%1 不是演练的报告：某一行不是 JSON 对象（%2）</translation>
    </message>
    <message>
        <source>%1 is not a dry run&apos;s report: an item lacks its name, owner, count or action</source>
        <translation>%1 不是演练的报告：某一项缺少名称、持有者、计数或操作</translation>
    </message>
    <message>
        <source>%1 is not a dry run&apos;s report: no line carries report_sha256</source>
        <translation>%1 不是演练的报告：没有任何一行带有 report_sha256</translation>
    </message>
    <message>
        <source>%1 was changed after its dry run: its items hash to %2, it says %3; nothing was released</source>
        <translation>%1 在演练之后被改动过：其条目的哈希为 %2，而文件中写的是 %3；未释放任何内容</translation>
    </message>
</context>
<context>
    <name>LockScope::ReapPolicy</name>
    <message>
        <source>a policy is a map with a rules list</source>
        <translation>策略应是一个包含 rules 列表的映射</translation>
    </message>
    <message>
        <source>an empty name</source>
        <translation>名称为空</translation>
    </message>
    <message>
        <source>at least 1s: a report is a pass over every lock</source>
        <translation>至少 1s：每份报告都要遍历所有锁</translation>
    </message>
    <message>
        <source>a policy needs a list of at least one rule</source>
        <translation>策略至少需要一条规则</translation>
    </message>
    <message>
        <source>rule %1</source>
        <translation>规则 %1</translation>
    </message>
    <message>
        <source>two rules have this name</source>
        <translation>有两条规则同名</translation>
    </message>
    <message>
        <source>not YAML: %1</source>
        <translation>不是 YAML：%1</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::ReapReport</name>
    <message numerus="yes">
        <source>policy %1 on %2: %n lock hold(s) to release</source>
        <translation>
            <numerusform>策略 %1（%2）：%n 个锁持有待释放</numerusform>
        </translation>
    </message>
    <message>
        <source>release</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>over quota, left for a later run</source>
        <translation>超出配额，留待下次运行</translation>
    </message>
    <message>
        <source>protected, left alone</source>
        <translation>受保护，未做处理</translation>
    </message>
    <message>
        <source>held for an unknown time</source>
        <translation>持有时长未知</translation>
    </message>
    <message>
        <source>held at least %1</source>
        <translation>已持有至少 %1</translation>
    </message>
    <message>
        <source>held %1</source>
        <translation>已持有 %1</translation>
    </message>
    <message>
        <source>  %1  %2  %3  count %4  %5  rule %6  → %7</source>
        <translation>  %1  %2  %3  计数 %4  %5  规则 %6  → %7</translation>
    </message>
    <message>
        <source>left alone: %1</source>
        <translation>未做处理：%1</translation>
    </message>
    <message>
        <source>%1%2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>, verified: %1</source>
        <translation>，核实：%1</translation>
    </message>
    <message>
        <source>partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
    <message>
        <source>report sha256 %1</source>
        <translation>报告 sha256 %1</translation>
    </message>
</context>
<context>
    <name>LockScope::ReclaimDialog</name>
    <message>
        <source>Reclaim by policy</source>
        <translation>按策略回收</translation>
    </message>
    <message>
        <source>&lt;p&gt;A reap policy (docs/reap-policy.md) says which locks may be reclaimed and what must be true of their holders. The console watches the locks it covers for its longest &lt;tt&gt;verdict_for&lt;/tt&gt; and reports every holder its rules judge gone. Only that report can be released, and each lock only if the check right before releasing finds it unchanged; every release is recorded in the audit log &lt;tt&gt;%1&lt;/tt&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;回收策略（docs/reap-policy.md）规定哪些锁可以回收，以及其持有者必须满足什么条件。控制台会按策略中最长的 &lt;tt&gt;verdict_for&lt;/tt&gt; 观察它覆盖的锁，并报告规则判定已失效的每个持有者。只能释放这份报告中的内容，而且每个锁仅在释放前的核对发现它未变化时才会释放；每次释放都记录在审计日志 &lt;tt&gt;%1&lt;/tt&gt; 中。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Policy &amp;file:</source>
        <translation>策略文件(&amp;F)：</translation>
    </message>
    <message>
        <source>reap.yaml</source>
        <translation>reap.yaml</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Watch and report</source>
        <translation>观察并报告</translation>
    </message>
    <message>
        <source>Watch the locks the policy covers for its longest verdict_for, then report; nothing is written</source>
        <translation>按策略中最长的 verdict_for 观察其覆盖的锁，然后报告；不写入任何内容</translation>
    </message>
    <message>
        <source>Choose a policy file, then Watch and report.</source>
        <translation>请选择策略文件，然后点击“观察并报告”。</translation>
    </message>
    <message>
        <source>The reaper&apos;s report</source>
        <translation>回收器的报告</translation>
    </message>
    <message>
        <source>&amp;Reason (goes into each audit record):</source>
        <translation>原因(&amp;R)（写入每条审计记录）：</translation>
    </message>
    <message>
        <source>e.g. INC-4711: nightly import crashed</source>
        <translation>例如 INC-4711：夜间导入崩溃</translation>
    </message>
    <message>
        <source>This is a &lt;b&gt;production&lt;/b&gt; server. Type the policy&apos;s name to confirm:</source>
        <translation>这是&lt;b&gt;生产&lt;/b&gt;服务器。请输入策略名称以确认：</translation>
    </message>
    <message numerus="yes">
        <source>Release %n lock hold(s)</source>
        <translation>
            <numerusform>释放 %n 个锁持有</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose a policy file first.</source>
        <translation>请先选择策略文件。</translation>
    </message>
    <message>
        <source>Choose a reap policy</source>
        <translation>选择回收策略</translation>
    </message>
    <message>
        <source>Reap policies (*.yaml *.yml);;All files (*)</source>
        <translation>回收策略 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message numerus="yes">
        <source>Policy %1 on %2: %n lock hold(s) to release.</source>
        <translation>
            <numerusform>策略 %1（%2）：%n 个锁持有待释放。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n more left alone (over the run&apos;s quota, or protected).</source>
        <translation>
            <numerusform>另有 %n 个未做处理（超出本次配额，或受保护）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not everything could be seen: %1.</source>
        <translation>并非所有内容都能看到：%1。</translation>
    </message>
    <message>
        <source>Report sha256: %1</source>
        <translation>报告 sha256：%1</translation>
    </message>
    <message>
        <source>Checking each lock again, then releasing those still as reported…</source>
        <translation>正在再次核对每个锁，然后释放仍与报告一致的锁…</translation>
    </message>
    <message numerus="yes">
        <source>%n lock hold(s) the check found were not in the report shown and were left alone.</source>
        <translation>
            <numerusform>核对时发现 %n 个锁持有不在所显示的报告中，未做处理。</numerusform>
        </translation>
    </message>
    <message>
        <source>Read-only connection: the report is shown, nothing is released.</source>
        <translation>只读连接：只显示报告，不释放任何内容。</translation>
    </message>
    <message>
        <source>Watch and report first: only a report you have read can be released.</source>
        <translation>请先观察并报告：只有你看过的报告才能释放。</translation>
    </message>
    <message>
        <source>Releasing…</source>
        <translation>正在释放…</translation>
    </message>
    <message>
        <source>This report has been acted on: watch and report again for a new one.</source>
        <translation>这份报告已执行：请重新观察并报告以获得新报告。</translation>
    </message>
    <message>
        <source>The report has nothing to release.</source>
        <translation>这份报告没有可释放的内容。</translation>
    </message>
    <message>
        <source>Type the policy&apos;s name to confirm: this is a production server.</source>
        <translation>请输入策略名称以确认：这是生产服务器。</translation>
    </message>
</context>
<context>
    <name>LockScope::ReclaimFlow</name>
    <message>
        <source>&amp;Reclaim by policy…</source>
        <translation>按策略回收(&amp;R)…</translation>
    </message>
    <message>
        <source>Watch the locks a reap policy covers and see which holders its rules judge gone (read-only connection: nothing is released)</source>
        <translation>观察回收策略覆盖的锁，查看其规则判定哪些持有者已失效（只读连接：不释放任何内容）</translation>
    </message>
    <message>
        <source>Watch the locks a reap policy covers, see which holders its rules judge gone, and release those you approve</source>
        <translation>观察回收策略覆盖的锁，查看其规则判定哪些持有者已失效，并释放你批准的那些</translation>
    </message>
    <message>
        <source>Not connected yet: there are no locks to watch.</source>
        <translation>尚未连接：没有可观察的锁。</translation>
    </message>
    <message numerus="yes">
        <source>Watching the locks policy %1 covers (%2) for %n s, its longest verdict_for…</source>
        <translation>
            <numerusform>正在观察策略 %1 覆盖的锁（%2），共 %n 秒，即其最长的 verdict_for…</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the locks this console watches (%1) are seen.</source>
        <translation>只能看到此控制台观察的锁（%1）。</translation>
    </message>
    <message>
        <source>Reclaim by policy %1 refused: %2</source>
        <translation>按策略 %1 回收被拒绝：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::ReclaimReportModel</name>
    <message>
        <source>release</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>over quota</source>
        <translation>超出配额</translation>
    </message>
    <message>
        <source>protected</source>
        <translation>受保护</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>not in the report shown, left alone</source>
        <translation>不在所显示的报告中，未做处理</translation>
    </message>
    <message>
        <source>left alone: over this run&apos;s quota</source>
        <translation>未做处理：超出本次运行的配额</translation>
    </message>
    <message>
        <source>left alone: its name is protected</source>
        <translation>未做处理：其名称受保护</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>left alone: %1</source>
        <translation>未做处理：%1</translation>
    </message>
    <message>
        <source>not released</source>
        <translation>未释放</translation>
    </message>
    <message>
        <source>verified: gone</source>
        <translation>核实：已不存在</translation>
    </message>
    <message>
        <source>verified: a waiter holds it now</source>
        <translation>核实：现由一个等待者持有</translation>
    </message>
    <message>
        <source>but its holder still holds it</source>
        <translation>但其持有者仍持有它</translation>
    </message>
    <message>
        <source>released</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Held</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>LockScope::Recorder</name>
    <message numerus="yes">
        <source>the recorder fell behind what the monitor saw: %n event(s) not kept</source>
        <translation>
            <numerusform>录制器跟不上监视器看到的内容：有 %n 个事件未保存</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::RecordingPostgres</name>
    <message>
        <source>%1 is not a LockScope recording (another program&apos;s database); it was left as it is</source>
        <translation>%1 不是 LockScope 录制（是其他程序的数据库）；未做任何改动</translation>
    </message>
    <message>
        <source>%1 was written by a newer LockScope (schema %2; this one reads up to %3); it was left as it is</source>
        <translation>%1 由更新版本的 LockScope 写入（模式 %2；本版本最多读取 %3）；未做任何改动</translation>
    </message>
    <message>
        <source>%1: cannot start a transaction (%2)</source>
        <translation>%1：无法开始事务（%2）</translation>
    </message>
    <message>
        <source>%1: cannot read the schema (%2)</source>
        <translation>%1：无法读取模式（%2）</translation>
    </message>
    <message>
        <source>%1: cannot create the schema (%2)</source>
        <translation>%1：无法创建模式（%2）</translation>
    </message>
    <message>
        <source>%1: cannot bring the schema to version %2 (%3); it was left as it is</source>
        <translation>%1：无法把模式升级到版本 %2（%3）；未做任何改动</translation>
    </message>
    <message>
        <source>%1: cannot bring the schema up to date (%2)</source>
        <translation>%1：无法把模式升级到最新（%2）</translation>
    </message>
    <message>
        <source>%1 is not a PostgreSQL URL (postgresql://user@host:port/database)</source>
        <translation>%1 不是 PostgreSQL URL（postgresql://user@host:port/database）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: no such recording</source>
        <translation>%1：没有这个录制</translation>
    </message>
    <message>
        <source>Qt&apos;s PostgreSQL driver gave no libpq connection to write with</source>
        <translation>Qt 的 PostgreSQL 驱动没有提供可用于写入的 libpq 连接</translation>
    </message>
    <message>
        <source>%1: the option %2 holds a &apos;;&apos;, which Qt&apos;s driver cannot pass on</source>
        <translation>%1：选项 %2 含有 &apos;;&apos;，Qt 的驱动无法传递它</translation>
    </message>
</context>
<context>
    <name>LockScope::RecordingStore</name>
    <message>
        <source>%1: no such recording</source>
        <translation>%1：没有这个录制</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 is not a LockScope recording (not an SQLite database); it was left as it is</source>
        <translation>%1 不是 LockScope 录制（不是 SQLite 数据库）；已原样保留</translation>
    </message>
    <message>
        <source>cannot create the folder of %1</source>
        <translation>无法创建 %1 所在的文件夹</translation>
    </message>
    <message>
        <source>Qt&apos;s SQLite driver is not installed (Debian: libqt6sql6-sqlite)</source>
        <translation>未安装 Qt 的 SQLite 驱动（Debian：libqt6sql6-sqlite）</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>the database is damaged or unreadable; it was left as it is</source>
        <translation>数据库已损坏或无法读取；已原样保留</translation>
    </message>
    <message>
        <source>the database is damaged (%1); it was left as it is</source>
        <translation>数据库已损坏（%1）；已原样保留</translation>
    </message>
    <message>
        <source>%1 is not a LockScope recording (another program&apos;s database); it was left as it is</source>
        <translation>%1 不是 LockScope 录制（是其他程序的数据库）；已原样保留</translation>
    </message>
    <message>
        <source>%1 was written by a newer LockScope (schema %2; this one reads up to %3); it was left as it is</source>
        <translation>%1 由更新版本的 LockScope 写入（模式 %2；本版本最多读取 %3）；已原样保留</translation>
    </message>
    <message>
        <source>cannot switch to write-ahead logging</source>
        <translation>无法切换到预写日志（WAL）</translation>
    </message>
    <message>
        <source>cannot create the schema</source>
        <translation>无法创建数据库模式</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>%1: cannot start a transaction (%2)</source>
        <translation>%1：无法开始事务（%2）</translation>
    </message>
    <message>
        <source>%1: cannot bring the schema to version %2 (%3); it was left as it is</source>
        <translation>%1：无法把模式升级到版本 %2（%3）；文件保持原样</translation>
    </message>
    <message>
        <source>%1: cannot bring the schema up to date (%2)</source>
        <translation>%1：无法把模式升级到最新（%2）</translation>
    </message>
    <message>
        <source>%1 is not a LockScope recording (not a regular file); it was left as it is</source>
        <translation>%1 不是 LockScope 录制文件（不是普通文件）；已保持原样</translation>
    </message>
    <message>
        <source>%1 is empty: not a LockScope recording</source>
        <translation>%1 是空文件：不是 LockScope 录制文件</translation>
    </message>
    <message>
        <source>Qt&apos;s PostgreSQL driver is not installed (Debian: libqt6sql6-psql)</source>
        <translation>未安装 Qt 的 PostgreSQL 驱动（Debian：libqt6sql6-psql）</translation>
    </message>
    <message>
        <source>%1 cannot be read (%2)</source>
        <translation>无法读取 %1（%2）</translation>
    </message>
</context>
<context>
    <name>LockScope::RedisConnection</name>
    <message>
        <source>connecting to %1:%2 took longer than %3 ms</source>
        <translation>连接 %1:%2 超过了 %3 毫秒</translation>
    </message>
    <message>
        <source>connection closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>SELECT failed</source>
        <translation>SELECT 失败</translation>
    </message>
    <message>
        <source>%1 refused: the connection is read-only</source>
        <translation>已拒绝 %1：连接为只读</translation>
    </message>
    <message>
        <source>unreadable reply: %1</source>
        <translation>无法解析的应答：%1</translation>
    </message>
    <message>
        <source>reply with no command waiting for it</source>
        <translation>收到应答，但没有等待它的命令</translation>
    </message>
    <message>
        <source>%1:%2: %3</source>
        <translation>%1:%2：%3</translation>
    </message>
    <message>
        <source>%1:%2: the server closed the connection</source>
        <translation>%1:%2：服务器关闭了连接</translation>
    </message>
    <message>
        <source>no connection to %1:%2 within %3 ms%4</source>
        <translation>%3 毫秒内未能连接到 %1:%2%4</translation>
    </message>
    <message>
        <source>%1:%2 did not answer within %3 ms</source>
        <translation>%1:%2 在 %3 毫秒内没有应答</translation>
    </message>
    <message>
        <source>; checked the certificate for &quot;%1&quot; against %2</source>
        <translation>；已按 %2 校验 &quot;%1&quot; 的证书</translation>
    </message>
    <message>
        <source>the system CA store</source>
        <translation>系统 CA 证书库</translation>
    </message>
    <message>
        <source>the CA file %1</source>
        <translation>CA 文件 %1</translation>
    </message>
    <message>
        <source>Sentinel moved master &quot;%1&quot; to %2:%3</source>
        <translation>Sentinel 已把主节点“%1”切换到 %2:%3</translation>
    </message>
    <message>
        <source>READONLY (reads from a replica) failed</source>
        <translation>READONLY（从副本读取）失败</translation>
    </message>
    <message>
        <source>cannot use the SSH channel&apos;s socket: %1</source>
        <translation>无法使用 SSH 通道的套接字：%1</translation>
    </message>
    <message>
        <source>%1:%2 through SSH %3: the connection closed</source>
        <translation>%1:%2（经由 SSH %3）：连接已关闭</translation>
    </message>
    <message>
        <source>a batch that writes refused: the connection is read-only</source>
        <translation>已拒绝含写命令的批量请求：连接为只读</translation>
    </message>
</context>
<context>
    <name>LockScope::RedisProbe</name>
    <message>
        <source>no reply within %1 ms</source>
        <translation>%1 毫秒内没有应答</translation>
    </message>
</context>
<context>
    <name>LockScope::RedisRouter</name>
    <message>
        <source>connecting to %1</source>
        <translation>正在连接 %1</translation>
    </message>
    <message>
        <source>Sentinel master &quot;%1&quot; at %2</source>
        <translation>Sentinel 主节点“%1”位于 %2</translation>
    </message>
    <message>
        <source>standalone %1</source>
        <translation>单机 %1</translation>
    </message>
    <message numerus="yes">
        <source>cluster: %n master(s), </source>
        <translation>
            <numerusform>集群：%n 个主节点，</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replica(s), </source>
        <translation>
            <numerusform>%n 个副本，</numerusform>
        </translation>
    </message>
    <message>
        <source>%1/16384 slots covered</source>
        <translation>已覆盖 %1/16384 个槽</translation>
    </message>
    <message>
        <source>the cluster reported no slots</source>
        <translation>集群未报告任何槽</translation>
    </message>
    <message>
        <source>CLUSTERDOWN no master serves slot %1 (a failover may be under way)</source>
        <translation>CLUSTERDOWN 没有主节点服务槽 %1（可能正在故障转移）</translation>
    </message>
    <message>
        <source>CROSSSLOT the lock&apos;s keys fall in different cluster slots (%1 and %2): a name containing &apos;{&apos; must hold a whole hash tag such as {tag}</source>
        <translation>CROSSSLOT 该锁的键落在不同的集群槽中（%1 与 %2）：包含“{”的名称必须带有完整的哈希标签，例如 {tag}</translation>
    </message>
    <message>
        <source>%1: link to its master down</source>
        <translation>%1：与其主节点的连接已断开</translation>
    </message>
    <message>
        <source>%1: %2 s behind at most</source>
        <translation>%1：最多落后 %2 秒</translation>
    </message>
    <message>
        <source>a batch came back short</source>
        <translation>批量请求返回的回复不全</translation>
    </message>
</context>
<context>
    <name>LockScope::RedisSubscriber</name>
    <message>
        <source>the pub/sub connection did not answer a PING within %1 ms</source>
        <translation>发布/订阅连接在 %1 毫秒内未响应 PING</translation>
    </message>
</context>
<context>
    <name>LockScope::ReleaseClientDialog</name>
    <message>
        <source>hold</source>
        <translation>持有</translation>
    </message>
    <message>
        <source>read hold</source>
        <translation>读持有</translation>
    </message>
    <message>
        <source>token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>queue place</source>
        <translation>队列位置</translation>
    </message>
    <message>
        <source>Release everything this client holds</source>
        <translation>释放该客户端持有的一切</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; holds nothing and waits for nothing here: there is nothing to release.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; 在这里既不持有也不等待任何东西：没有可释放的内容。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;p&gt;Release everything &lt;b&gt;%1&lt;/b&gt; holds or waits for here, %n item(s), each as its library&apos;s own release gives it back: every level of a hold, its waiters woken; a place in a fair queue given up, the new head told.&lt;/p&gt;</source>
        <translation>
            <numerusform>&lt;p&gt;释放 &lt;b&gt;%1&lt;/b&gt; 在这里持有或等待的一切，共 %n 项，每项都按其所属库自身的释放方式归还：持有的每一层都释放，并唤醒其等待者；公平队列中的位置被放弃，并通知新的队首。&lt;/p&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Not every node could be read:&lt;/b&gt; %1. What the client holds there is not listed and is not released.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;并非每个节点都能读取：&lt;/b&gt;%1。该客户端在那里持有的东西未列出，也不会被释放。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>What will be released</source>
        <translation>将被释放的内容</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>What</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Owner</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Liveness</source>
        <translation>存活状态</translation>
    </message>
    <message>
        <source>&lt;p&gt;Only these are released, each only while it is as shown: a hold taken after this list was read, or taken again since, stays. The owner may still believe it holds them: its own unlock will fail later.&lt;/p&gt;&lt;p&gt;The attempt is recorded in the audit log &lt;tt&gt;%1&lt;/tt&gt;, whatever its outcome.&lt;/p&gt;</source>
        <translation>&lt;p&gt;只释放这些项，且每项仅在仍与所显示的一致时才释放：读取此列表之后才取得的持有，或此后重新取得的持有，都会保留。持有者可能仍以为自己持有它们：它自己的解锁稍后会失败。&lt;/p&gt;&lt;p&gt;无论结果如何，此次尝试都会记入审计日志 &lt;tt&gt;%1&lt;/tt&gt;。&lt;/p&gt;</translation>
    </message>
    <message numerus="yes">
        <source>Even if alive: %n item(s) look alive; release them all the same (their holder may still be working under the lock)</source>
        <translation>
            <numerusform>即使存活也释放：%n 项看起来仍然存活；照样释放它们（其持有者可能仍在锁的保护下工作）</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Reason (goes into the audit record):</source>
        <translation>原因（写入审计记录）(&amp;R)：</translation>
    </message>
    <message>
        <source>e.g. INC-4711: pod orders-7 killed</source>
        <translation>例如 INC-4711：pod orders-7 已被终止</translation>
    </message>
    <message>
        <source>This is a &lt;b&gt;production&lt;/b&gt; server. Type the client id to confirm:</source>
        <translation>这是一台&lt;b&gt;生产&lt;/b&gt;服务器。请键入客户端 ID 以确认：</translation>
    </message>
    <message numerus="yes">
        <source>&amp;Release %n item(s)</source>
        <translation>
            <numerusform>释放 %n 项(&amp;R)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) look alive: releasing a live holder breaks the exclusion it relies on. Tick &quot;Even if alive&quot; once you know it is gone.</source>
        <translation>
            <numerusform>%n 项看起来仍然存活：释放存活的持有者会破坏它所依赖的互斥。确知它已不在后，请勾选“即使存活也释放”。</numerusform>
        </translation>
    </message>
    <message>
        <source>Type the client id to confirm: this is a production server.</source>
        <translation>请键入客户端 ID 以确认：这是一台生产服务器。</translation>
    </message>
</context>
<context>
    <name>LockScope::ReleaseClientFlow</name>
    <message>
        <source>Release of everything %1 holds refused: %2</source>
        <translation>释放 %1 持有的一切被拒绝：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::ReleaseNamespaceWatch</name>
    <message numerus="yes">
        <source>released with PUBLISH while its %n waiter(s) listen on the shard channel (SSUBSCRIBE): they sleep until their TTL; publish with both</source>
        <translation>
            <numerusform>以 PUBLISH 释放，而它的 %n 个等待者在监听分片频道（SSUBSCRIBE）：它们会一直睡到 TTL 结束；请改为两者都发布</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>released with SPUBLISH while its %n waiter(s) listen on the plain channel (SUBSCRIBE): they sleep until their TTL; publish with both</source>
        <translation>
            <numerusform>以 SPUBLISH 释放，而它的 %n 个等待者在监听普通频道（SUBSCRIBE）：它们会一直睡到 TTL 结束；请改为两者都发布</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LockScope::ReplayEngine</name>
    <message>
        <source>no recording is open</source>
        <translation>没有打开的录制文件</translation>
    </message>
</context>
<context>
    <name>LockScope::ReplayEventsModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Holder</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>TTL</source>
        <translation>TTL</translation>
    </message>
    <message>
        <source>What was seen</source>
        <translation>观察到的情况</translation>
    </message>
</context>
<context>
    <name>LockScope::ReplayTableModel</name>
    <message>
        <source>no expiry</source>
        <translation>不过期</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>无人持有</translation>
    </message>
    <message>
        <source>from before the recording</source>
        <translation>录制开始之前</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Held by</source>
        <translation>持有者</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>TTL then</source>
        <translation>当时的 TTL</translation>
    </message>
    <message>
        <source>Held for</source>
        <translation>已持有</translation>
    </message>
    <message>
        <source>since before %1</source>
        <translation>早于 %1 开始</translation>
    </message>
</context>
<context>
    <name>LockScope::ReplayWindow</name>
    <message>
        <source>Replay of %1 — LockScope</source>
        <translation>回放 %1 — LockScope</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>The server whose locks are shown</source>
        <translation>显示哪台服务器上的锁</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>播放(&amp;P)</translation>
    </message>
    <message>
        <source>Play the recording from the moment shown (Space)</source>
        <translation>从显示的时刻开始播放录制（空格键）</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>How fast the recording plays</source>
        <translation>录制的播放速度</translation>
    </message>
    <message>
        <source>&amp;Next event of the lock</source>
        <translation>该锁的下一个事件(&amp;N)</translation>
    </message>
    <message>
        <source>Go to the selected lock&apos;s next event (Ctrl+Right)</source>
        <translation>跳到所选锁的下一个事件（Ctrl+右方向键）</translation>
    </message>
    <message>
        <source>The recording from its first event to its last: click or drag to a moment</source>
        <translation>录制从第一个事件到最后一个事件：点击或拖动到某个时刻</translation>
    </message>
    <message>
        <source>Filter locks by name (glob)</source>
        <translation>按名称筛选锁（通配符）</translation>
    </message>
    <message>
        <source>Select a lock to see its history.</source>
        <translation>选择一个锁以查看它的历史。</translation>
    </message>
    <message>
        <source>&amp;History of the lock</source>
        <translation>锁的历史(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Events up to the moment</source>
        <translation>截至该时刻的事件(&amp;E)</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message numerus="yes">
        <source>History of %1: %n event(s)</source>
        <translation>
            <numerusform>%1 的历史：%n 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 has no event after this moment</source>
        <translation>%1 在此时刻之后没有事件</translation>
    </message>
    <message>
        <source>%1 holds no events yet</source>
        <translation>%1 中还没有事件</translation>
    </message>
    <message numerus="yes">
        <source>%1 on %2: %n lock(s)</source>
        <translation>
            <numerusform>%1，%2 上：%n 个锁</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n held</source>
        <translation>
            <numerusform>%n 个被持有</numerusform>
        </translation>
    </message>
    <message>
        <source>not seen: %1</source>
        <translation>未观察到：%1</translation>
    </message>
    <message>
        <source>History of %1 (not held at this moment)</source>
        <translation>%1 的历史（此时刻未被持有）</translation>
    </message>
    <message>
        <source>Reading the history of %1…</source>
        <translation>正在读取 %1 的历史…</translation>
    </message>
    <message>
        <source>Who held the lock up to the moment shown: click a bar to see that moment</source>
        <translation>到所示时刻为止谁持有过该锁：点击某一段以查看那个时刻</translation>
    </message>
    <message>
        <source>The moment shown: type one (2026-11-26 03:12, or 03:12:05 on the day shown) and press Return</source>
        <translation>显示的时刻：输入一个时刻（2026-11-26 03:12，或当天的 03:12:05）后按回车</translation>
    </message>
    <message>
        <source>&amp;Contention in the hour before</source>
        <translation>之前一小时的争用(&amp;C)</translation>
    </message>
    <message>
        <source>The hour before %1, folded from the recording as live statistics are: the hottest locks first. Waiters seen only by polling are not in a recording.</source>
        <translation>%1 之前的一小时，按实时统计的方式从录制中汇总：最热的锁排在前面。仅靠轮询看到的等待者不在录制中。</translation>
    </message>
    <message>
        <source>%1 is not a moment: type 2026-11-26 03:12:05 or 03:12:05</source>
        <translation>%1 不是一个时刻：请输入 2026-11-26 03:12:05 或 03:12:05</translation>
    </message>
    <message>
        <source>Folding the hour before %1…</source>
        <translation>正在汇总 %1 之前的一小时…</translation>
    </message>
</context>
<context>
    <name>LockScope::SentinelResolver</name>
    <message>
        <source>no Sentinel knows a master named &quot;%1&quot; (%2)</source>
        <translation>没有 Sentinel 知道名为“%1”的主节点（%2）</translation>
    </message>
    <message>
        <source>does not know it</source>
        <translation>不知道它</translation>
    </message>
    <message>
        <source>answered no usable address</source>
        <translation>给出的地址不可用</translation>
    </message>
</context>
<context>
    <name>LockScope::ServerStatus</name>
    <message>
        <source>Redis</source>
        <translation>Redis</translation>
    </message>
    <message>
        <source>Redis %1</source>
        <translation>Redis %1</translation>
    </message>
    <message>
        <source>%1 · RTT %2 ms</source>
        <translation>%1 · 往返 %2 毫秒</translation>
    </message>
    <message>
        <source>slots %1-%2: master %3:%4, replicas: %5</source>
        <translation>槽 %1-%2：主节点 %3:%4，副本：%5</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>replica reads: a replica lost its master, data may be stale</source>
        <translation>副本读取：有副本失去了主节点，数据可能已过时</translation>
    </message>
    <message numerus="yes">
        <source>replica reads, up to %n s behind</source>
        <translation>
            <numerusform>副本读取，最多落后 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>replica reads:</source>
        <translation>副本读取：</translation>
    </message>
</context>
<context>
    <name>LockScope::SortedSetLayout</name>
    <message>
        <source>%1 is not a sorted-set lock: the key holds another type (%2)</source>
        <translation>%1 不是有序集合锁：该键存放的是其他类型（%2）</translation>
    </message>
    <message>
        <source>%1 keeps its holders as members of a sorted set: name the member to release (&quot;%2&quot; is no holder); nothing changed</source>
        <translation>%1 以有序集合的成员记录持有者：请指定要释放的成员（&quot;%2&quot; 不是持有者）；未做任何更改</translation>
    </message>
    <message>
        <source>%1 keeps its holders as members of a sorted set: a force release removes only the members seen</source>
        <translation>%1 以有序集合的成员记录持有者：强制释放只移除所见的成员</translation>
    </message>
</context>
<context>
    <name>LockScope::SshFields</name>
    <message>
        <source>Through an SSH &amp;tunnel</source>
        <translation>经由 SSH 隧道(&amp;T)</translation>
    </message>
    <message>
        <source>Every connection (the server, its cluster nodes, its sentinels) goes through this SSH host. The URL names the server as the SSH host sees it, such as redis://127.0.0.1:6379.</source>
        <translation>每个连接（服务器、其集群节点、其 Sentinel）都经由此 SSH 主机。URL 写的是从 SSH 主机看到的服务器地址，例如 redis://127.0.0.1:6379。</translation>
    </message>
    <message>
        <source>SSH host</source>
        <translation>SSH 主机</translation>
    </message>
    <message>
        <source>the agent, then ~/.ssh/id_*</source>
        <translation>先用 SSH 代理，再用 ~/.ssh/id_*</translation>
    </message>
    <message>
        <source>SSH private key</source>
        <translation>SSH 私钥</translation>
    </message>
    <message>
        <source>SSH known hosts file</source>
        <translation>SSH known_hosts 文件</translation>
    </message>
    <message>
        <source>only if the host asks for one</source>
        <translation>仅当主机要求时</translation>
    </message>
    <message>
        <source>SSH password</source>
        <translation>SSH 密码</translation>
    </message>
    <message>
        <source>SSH &amp;host:</source>
        <translation>SSH 主机(&amp;H)：</translation>
    </message>
    <message>
        <source>Private &amp;key:</source>
        <translation>私钥(&amp;K)：</translation>
    </message>
    <message>
        <source>Known hosts:</source>
        <translation>known_hosts：</translation>
    </message>
    <message>
        <source>SSH pass&amp;word:</source>
        <translation>SSH 密码(&amp;W)：</translation>
    </message>
</context>
<context>
    <name>LockScope::SshHostKeyProbe</name>
    <message>
        <source>SSH %1: out of memory</source>
        <translation>SSH %1：内存不足</translation>
    </message>
    <message>
        <source>SSH %1: cannot connect: %2</source>
        <translation>SSH %1：无法连接：%2</translation>
    </message>
</context>
<context>
    <name>LockScope::SshOptions</name>
    <message>
        <source>the SSH user before &quot;@&quot; is empty in &quot;%1&quot;</source>
        <translation>“%1”中“@”前的 SSH 用户为空</translation>
    </message>
    <message>
        <source>unclosed &quot;[&quot; in the SSH host &quot;%1&quot;</source>
        <translation>SSH 主机“%1”中的“[”没有闭合</translation>
    </message>
    <message>
        <source>unexpected &quot;%1&quot; after the SSH host</source>
        <translation>SSH 主机后出现了意外的“%1”</translation>
    </message>
    <message>
        <source>no SSH host in &quot;%1&quot; (expected USER@HOST[:PORT])</source>
        <translation>“%1”中没有 SSH 主机（应为 USER@HOST[:PORT]）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host name</source>
        <translation>“%1”不是主机名</translation>
    </message>
    <message>
        <source>SSH port &quot;%1&quot; is not a number from 1 to 65535</source>
        <translation>SSH 端口“%1”不是 1 到 65535 之间的数字</translation>
    </message>
</context>
<context>
    <name>LockScope::SshWorker</name>
    <message>
        <source>cannot make a channel</source>
        <translation>无法创建通道</translation>
    </message>
    <message>
        <source>SSH %1 did not open a channel to %2:%3 in time</source>
        <translation>SSH %1 未能及时打开到 %2:%3 的通道</translation>
    </message>
    <message>
        <source>SSH %1 could not reach %2:%3: %4</source>
        <translation>SSH %1 无法访问 %2:%3：%4</translation>
    </message>
    <message>
        <source>cannot make a local socket pair: %1</source>
        <translation>无法创建本地套接字对：%1</translation>
    </message>
    <message>
        <source>SSH %1: %2</source>
        <translation>SSH %1：%2</translation>
    </message>
    <message>
        <source>SSH %1: %2: %3</source>
        <translation>SSH %1：%2：%3</translation>
    </message>
    <message>
        <source>the connection to the SSH host was lost</source>
        <translation>与 SSH 主机的连接已断开</translation>
    </message>
    <message>
        <source>SSH %1: out of memory</source>
        <translation>SSH %1：内存不足</translation>
    </message>
    <message>
        <source>cannot connect</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>authentication failed</source>
        <translation>认证失败</translation>
    </message>
    <message>
        <source>SSH %1: cannot read the private key %2 (missing, unreadable, or protected by a passphrase)</source>
        <translation>SSH %1：无法读取私钥 %2（不存在、不可读，或受口令保护）</translation>
    </message>
    <message>
        <source>the key %1</source>
        <translation>密钥 %1</translation>
    </message>
    <message>
        <source>the agent and the default keys</source>
        <translation>SSH 代理和默认密钥</translation>
    </message>
    <message>
        <source>the password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>the default user</source>
        <translation>默认用户</translation>
    </message>
    <message>
        <source>authentication as %1 was refused (tried %2; the server accepts %3)</source>
        <translation>以 %1 身份认证被拒绝（尝试了 %2；服务器接受 %3）</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>the tunnel closed</source>
        <translation>隧道已关闭</translation>
    </message>
</context>
<context>
    <name>LockScope::StatsCollector</name>
    <message>
        <source>without keyspace events a hold shorter than the re-scan interval (%1 ms) is not seen: acquisitions are a lower bound</source>
        <translation>没有键空间事件时，短于重新扫描间隔（%1 毫秒）的持有看不到：获取次数是下限</translation>
    </message>
    <message>
        <source>hold times are known to the re-scan interval only</source>
        <translation>持有时间只精确到重新扫描间隔</translation>
    </message>
    <message>
        <source>an expiry is told from a release by the lease&apos;s deadline, not by the server&apos;s word</source>
        <translation>过期与释放是根据租约截止时间区分的，而不是服务器的通知</translation>
    </message>
</context>
<context>
    <name>LockScope::StringLayout</name>
    <message>
        <source>%1 is not a string lock: the key holds another type (%2)</source>
        <translation>%1 不是字符串锁：该键存放的是其他类型（%2）</translation>
    </message>
    <message>
        <source>%1 is not a lock: it holds the integer %2, a counter (semaphore permits or a count-down latch), not a holder&apos;s token; nothing changed</source>
        <translation>%1 不是锁：它存放整数 %2，是计数器（信号量许可或倒计时门闩），而不是持有者的令牌；未做任何更改</translation>
    </message>
    <message>
        <source>%1 is a string lock: it is force-released only while it holds the one token seen</source>
        <translation>%1 是字符串锁：只有在它仍持有所见的那一个令牌时才能强制释放</translation>
    </message>
</context>
<context>
    <name>LockScope::StuckFinding</name>
    <message>
        <source>held with no TTL: it never expires</source>
        <translation>被持有且没有 TTL：它永不过期</translation>
    </message>
    <message>
        <source>held longer than the threshold</source>
        <translation>持有时间超过阈值</translation>
    </message>
    <message>
        <source>its watchdog stopped renewing: the holder died or hangs</source>
        <translation>它的看门狗停止续期：持有者已死亡或挂起</translation>
    </message>
    <message>
        <source>the fair queue is jammed: its head&apos;s deadline passed and nobody holds it</source>
        <translation>公平队列被堵塞：队首的截止时间已过，且无人持有</translation>
    </message>
    <message>
        <source>dead readers (their timeout keys are gone) keep writers out</source>
        <translation>已死的读者（其超时键已消失）把写者挡在外面</translation>
    </message>
    <message>
        <source>waiters on a free lock: a wake-up message was missed</source>
        <translation>空闲的锁上有等待者：漏掉了一条唤醒消息</translation>
    </message>
    <message>
        <source>force release it once you know its holder is gone</source>
        <translation>确认持有者已不在后强制释放</translation>
    </message>
    <message>
        <source>remove the dead waiters: lockscope-cli repair-queue NAME</source>
        <translation>移除已死的等待者：lockscope-cli repair-queue NAME</translation>
    </message>
    <message>
        <source>its lease runs out by itself; force release only if waiting costs more</source>
        <translation>它的租约会自行到期；只有等待代价更大时才强制释放</translation>
    </message>
    <message>
        <source>ask its holder first: it may still be working; then force release</source>
        <translation>先询问持有者：它可能仍在工作；然后再强制释放</translation>
    </message>
    <message>
        <source>force release publishes the wake-up message the waiters sleep through</source>
        <translation>强制释放会发布等待者错过的唤醒消息</translation>
    </message>
</context>
<context>
    <name>LockScope::TimelineState</name>
    <message>
        <source>before the recording&apos;s first snapshot</source>
        <translation>在录制的第一个快照之前</translation>
    </message>
    <message>
        <source>inside a gap in what was seen (%1)</source>
        <translation>处于观察空白之中（%1）</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
</context>
<context>
    <name>LockScope::TraceDialog</name>
    <message>
        <source>Trace clients</source>
        <translation>跟踪客户端</translation>
    </message>
    <message>
        <source>&lt;p&gt;A trace runs MONITOR on the server for a few seconds to see which connection sends each lock&apos;s owner id or token, and who keeps retrying a lock: it names the connection of every holder it sees at work, and tells when that connection closes.&lt;/p&gt;&lt;p&gt;&lt;b&gt;What it costs:&lt;/b&gt; every command the server runs is copied to LockScope while it runs, which takes the server CPU time and bandwidth in proportion to its traffic. The cost is measured and shown. It stops by itself after the time below. It needs the +monitor right (in @admin and @dangerous).&lt;/p&gt;</source>
        <translation>&lt;p&gt;跟踪会在服务器上运行 MONITOR 几秒钟，查看每把锁的持有者 id 或令牌由哪个连接发出，以及谁在反复重试某把锁：它会找出所见到的每个正在工作的持有者的连接，并在该连接关闭时告知。&lt;/p&gt;&lt;p&gt;&lt;b&gt;代价：&lt;/b&gt;跟踪运行期间，服务器执行的每条命令都会复制给 LockScope，这会按其流量比例占用服务器的 CPU 时间和带宽。代价会被测量并显示。到达下面设定的时长后它会自行停止。它需要 +monitor 权限（属于 @admin 和 @dangerous）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>How long the trace runs, in seconds</source>
        <translation>跟踪运行的时长（秒）</translation>
    </message>
    <message>
        <source>&amp;Duration:</source>
        <translation>时长(&amp;D)：</translation>
    </message>
    <message>
        <source>Time left in the trace</source>
        <translation>跟踪剩余时间</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Holders and their connections</source>
        <translation>持有者及其连接</translation>
    </message>
    <message>
        <source>Holder / connection</source>
        <translation>持有者 / 连接</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Library</source>
        <translation>库</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>连接时长</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>最后出现</translation>
    </message>
    <message>
        <source>&amp;Holders</source>
        <translation>持有者(&amp;H)</translation>
    </message>
    <message>
        <source>Who retries which lock</source>
        <translation>谁在重试哪把锁</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>锁</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <source>As</source>
        <translation>身份</translation>
    </message>
    <message>
        <source>&amp;Retries</source>
        <translation>重试(&amp;R)</translation>
    </message>
    <message>
        <source>Every connection of CLIENT LIST</source>
        <translation>CLIENT LIST 中的所有连接</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Last command</source>
        <translation>最后的命令</translation>
    </message>
    <message>
        <source>Co&amp;nnections</source>
        <translation>连接(&amp;N)</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Reading the server&apos;s CPU figures, then starting MONITOR…</source>
        <translation>正在读取服务器的 CPU 数据，然后启动 MONITOR…</translation>
    </message>
    <message>
        <source>Stopping: reading CLIENT LIST and the server&apos;s CPU figures…</source>
        <translation>正在停止：读取 CLIENT LIST 和服务器的 CPU 数据…</translation>
    </message>
    <message>
        <source>Tracing %1 for %2: every command the server runs is copied to LockScope while it runs.</source>
        <translation>正在跟踪 %1，时长 %2：运行期间，服务器执行的每条命令都会复制给 LockScope。</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <source>not traced</source>
        <translation>未跟踪</translation>
    </message>
    <message>
        <source>Stopped before the trace started: nothing was traced.</source>
        <translation>在跟踪开始前已停止：未跟踪任何内容。</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Kept for lockscope-cli in %1.</source>
        <translation>已保存到 %1，供 lockscope-cli 使用。</translation>
    </message>
    <message>
        <source>Could not be kept for lockscope-cli in %1: %2</source>
        <translation>无法保存到 %1 供 lockscope-cli 使用：%2</translation>
    </message>
    <message>
        <source>Traced for %1: %2 identities seen, %3 retrying. The table, the detail pane and Force release now name the holders&apos; connections. %4</source>
        <translation>已跟踪 %1：见到 %2 个身份，%3 个在重试。表格、详情面板和强制释放现在会标出持有者的连接。%4</translation>
    </message>
    <message>
        <source>%1 @%2</source>
        <translation>%1 @%2</translation>
    </message>
    <message>
        <source>owner id</source>
        <translation>持有者 id</translation>
    </message>
    <message>
        <source>client id</source>
        <translation>客户端 id</translation>
    </message>
    <message>
        <source>token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>Locks it named: %1</source>
        <translation>它涉及的锁：%1</translation>
    </message>
    <message>
        <source>not listed</source>
        <translation>未列出</translation>
    </message>
    <message>
        <source>open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>gone</source>
        <translation>已断开</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Cost: the server spent %1 ms of CPU in %2 s (%3 % of a core); MONITOR sent %4 lines, %5 bytes.</source>
        <translation>代价：服务器在 %2 秒内花费了 %1 毫秒 CPU（占一个核心的 %3 %）；MONITOR 发送了 %4 行、%5 字节。</translation>
    </message>
    <message>
        <source>Cost: the server&apos;s CPU could not be read (INFO cpu); MONITOR sent %1 lines, %2 bytes in %3 s.</source>
        <translation>代价：无法读取服务器的 CPU（INFO cpu）；MONITOR 在 %3 秒内发送了 %1 行、%2 字节。</translation>
    </message>
    <message>
        <source>Partial: %1</source>
        <translation>不完整：%1</translation>
    </message>
</context>
<context>
    <name>LockScope::TraceSession</name>
    <message>
        <source>more than %1 identities were seen: later ones were not kept</source>
        <translation>出现的身份超过 %1 个：之后的未被保留</translation>
    </message>
    <message>
        <source>more than %1 acquire attempts were seen: later ones were not counted</source>
        <translation>出现的获取尝试超过 %1 个：之后的未被计数</translation>
    </message>
    <message>
        <source>the server did not answer in time</source>
        <translation>服务器未能及时应答</translation>
    </message>
    <message>
        <source>no server to trace</source>
        <translation>没有可跟踪的服务器</translation>
    </message>
    <message>
        <source>MONITOR was refused for user &apos;%1&apos;: the trace needs +monitor (in @admin and @dangerous); nothing was traced</source>
        <translation>用户“%1”被拒绝执行 MONITOR：跟踪需要 +monitor 权限（属于 @admin 和 @dangerous）；未进行任何跟踪</translation>
    </message>
    <message>
        <source>MONITOR is not available on %1 (the server answered &quot;%2&quot;: it was renamed or disabled); nothing was traced</source>
        <translation>%1 上无法使用 MONITOR（服务器回答“%2”：该命令已被改名或禁用）；未进行任何跟踪</translation>
    </message>
    <message>
        <source>MONITOR failed on %1: %2; nothing was traced</source>
        <translation>%1 上的 MONITOR 失败：%2；未进行任何跟踪</translation>
    </message>
    <message>
        <source>node %1 down (%2)</source>
        <translation>节点 %1 不可用（%2）</translation>
    </message>
    <message>
        <source>no server could be traced</source>
        <translation>没有任何服务器可以跟踪</translation>
    </message>
    <message>
        <source>stopped before the trace started</source>
        <translation>跟踪开始前已停止</translation>
    </message>
    <message>
        <source>CLIENT LIST denied on %1</source>
        <translation>%1 上的 CLIENT LIST 被拒绝</translation>
    </message>
    <message>
        <source>CLIENT LIST denied</source>
        <translation>CLIENT LIST 被拒绝</translation>
    </message>
    <message>
        <source>CLIENT LIST failed on %1: %2</source>
        <translation>%1 上的 CLIENT LIST 失败：%2</translation>
    </message>
    <message>
        <source>an unexpected reply</source>
        <translation>意外的回复</translation>
    </message>
    <message>
        <source>MONITOR on %1 had not caught up when the trace ended: its last lines were not read</source>
        <translation>%1 上的 MONITOR 在跟踪结束时尚未追上：最后的几行没有读到</translation>
    </message>
</context>
<context>
    <name>LockScope::TraceStore</name>
    <message>
        <source>cannot make the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
</context>
<context>
    <name>LockScope::UniqueJobLayout</name>
    <message>
        <source>%1 is not a sidekiq-unique-jobs lock: the key holds another type (%2)</source>
        <translation>%1 不是 sidekiq-unique-jobs 锁：该键存放的是其他类型（%2）</translation>
    </message>
    <message>
        <source>%1 is held by Sidekiq jobs: name the job id (24 hex digits) to release, not &quot;%2&quot;; nothing changed</source>
        <translation>%1 由 Sidekiq 作业持有：请指定要释放的作业 id（24 位十六进制），而不是 &quot;%2&quot;；未做任何更改</translation>
    </message>
</context>
</TS>
