#include "ssh/sshsession.h"

#include "ssh/threadmailbox.h"

#include <QCoreApplication>

#include <thread>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope", text);
}

// What ssh-keygen -l prints: "SHA256:" and the unpadded base64 of the key's SHA-256.
QByteArray fingerprintOf(ssh_key key)
{
    unsigned char *hash = nullptr;
    size_t length = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &length) != SSH_OK)
        return {};
    char *text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, length);
    ssh_clean_pubkey_hash(&hash);
    QByteArray fingerprint(text);
    ssh_string_free_char(text);
    return fingerprint;
}
} // namespace

ssh_session newSshSession(const SshOptions &options, int timeoutMs)
{
    ssh_session session = ssh_new();
    if (!session)
        return nullptr;
    const int verbosity = SSH_LOG_NOLOG;
    ssh_options_set(session, SSH_OPTIONS_LOG_VERBOSITY, &verbosity);
    ssh_options_set(session, SSH_OPTIONS_HOST, options.host.toUtf8().constData());
    const unsigned int port = options.port;
    ssh_options_set(session, SSH_OPTIONS_PORT, &port);
    if (!options.user.isEmpty())
        ssh_options_set(session, SSH_OPTIONS_USER, options.user.toUtf8().constData());
    if (!options.knownHostsFile.isEmpty()) {
        ssh_options_set(session, SSH_OPTIONS_KNOWNHOSTS, options.knownHostsFile.toLocal8Bit().constData());
        // A file named for this profile is the only truth: the system-wide list must not vouch for a host either.
        ssh_options_set(session, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/dev/null");
    }
    // Set before the options above are read back from ~/.ssh/config, which then only fills what they leave open.
    const bool processConfig = options.readSshConfig;
    ssh_options_set(session, SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
    // Redis traffic is small requests waiting on small replies: Nagle's algorithm would hold them back.
    const int noDelay = 1;
    ssh_options_set(session, SSH_OPTIONS_NODELAY, &noDelay);
    const long seconds = qMax(1, timeoutMs) / 1000;
    const long micros = (qMax(1, timeoutMs) % 1000) * 1000L;
    ssh_options_set(session, SSH_OPTIONS_TIMEOUT, &seconds);
    ssh_options_set(session, SSH_OPTIONS_TIMEOUT_USEC, &micros);
    return session;
}

SshHostKey checkSshHostKey(ssh_session session, const SshOptions &options)
{
    SshHostKey result;
    const QString where = options.display();
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session, &key) != SSH_OK) {
        result.error = RedisError(RedisError::Kind::Io,
            tr("SSH %1: the server sent no host key: %2").arg(where, QString::fromUtf8(ssh_get_error(session))), "SSH");
        return result;
    }
    result.keyType = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    result.fingerprint = fingerprintOf(key);
    ssh_key_free(key);
    const QString knownHosts
        = options.knownHostsFile.isEmpty() ? QStringLiteral("~/.ssh/known_hosts") : options.knownHostsFile;
    const QString fingerprint = QString::fromLatin1(result.fingerprint);
    switch (ssh_session_is_known_server(session)) {
    case SSH_KNOWN_HOSTS_OK:
        result.state = SshHostKey::State::Known;
        return result;
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER:
        // Never accepted, whatever was confirmed: a changed key is what an attacker in the middle looks like.
        result.state = SshHostKey::State::Changed;
        result.error = RedisError(RedisError::Kind::Io,
            tr("SSH %1: the host key has CHANGED: %2 now offers %3 key %4, which is not the key %5 holds for it. "
               "Refused: this is what an attacker in the middle looks like. If the server was really given a new "
               "key, remove the old one (ssh-keygen -R HOST -f FILE) and connect again to confirm the new one.")
                .arg(where, options.host, result.keyType, fingerprint, knownHosts),
            "SSH_HOSTKEY_CHANGED", result.fingerprint);
        return result;
    case SSH_KNOWN_HOSTS_NOT_FOUND:
    case SSH_KNOWN_HOSTS_UNKNOWN:
        if (!options.acceptHostKey.isEmpty() && options.acceptHostKey == result.fingerprint) {
            // Confirmed by the person who saw this fingerprint: remembered as ssh would. A file that cannot be
            // written costs only the question next time.
            ssh_session_update_known_hosts(session);
            result.state = SshHostKey::State::Known;
            return result;
        }
        if (!options.acceptHostKey.isEmpty()) {
            result.state = SshHostKey::State::Changed;
            result.error = RedisError(RedisError::Kind::Io,
                tr("SSH %1: the host key %2 is not the one that was accepted (%3); refused")
                    .arg(where, fingerprint, QString::fromLatin1(options.acceptHostKey)),
                "SSH_HOSTKEY_CHANGED", result.fingerprint);
            return result;
        }
        result.state = SshHostKey::State::Unknown;
        result.error = RedisError(RedisError::Kind::Io,
            tr("SSH %1: the host key is not known: %2 key %3 is not in %4. Check the fingerprint with the server's "
               "administrator, then accept it.")
                .arg(where, result.keyType, fingerprint, knownHosts),
            "SSH_HOSTKEY_UNKNOWN", result.fingerprint);
        return result;
    case SSH_KNOWN_HOSTS_ERROR:
        break;
    }
    result.error = RedisError(RedisError::Kind::Io,
        tr("SSH %1: cannot check the host key against %2: %3")
            .arg(where, knownHosts, QString::fromUtf8(ssh_get_error(session))),
        "SSH_HOSTKEY_UNKNOWN", result.fingerprint);
    return result;
}

SshHostKeyProbe::SshHostKeyProbe(SshOptions options, int timeoutMs, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_timeoutMs(timeoutMs)
    , m_mailbox(std::make_shared<ThreadMailbox>(this, "drainMailbox"))
{
    qRegisterMetaType<LockScope::SshHostKey>();
}

SshHostKeyProbe::~SshHostKeyProbe()
{
    m_mailbox->close();
    if (!m_thread.joinable())
        return;
    // Once it has answered the thread only unwinds (libssh's and OpenSSL's thread cleanup): joined, so that cleanup
    // is over before the process's own exit handlers free what it touches. A probe dropped mid-connect is left to
    // finish alone: it holds only copies and the closed mailbox, and waiting would block for the connect timeout.
    if (m_answered)
        m_thread.join();
    else
        m_thread.detach();
}

void SshHostKeyProbe::drainMailbox()
{
    m_mailbox->drain();
}

void SshHostKeyProbe::start()
{
    // The thread holds only copies and the mailbox, and ends after one connect attempt at most.
    if (m_thread.joinable())
        return;
    m_thread = std::thread([options = m_options, timeoutMs = m_timeoutMs, mailbox = m_mailbox, self = this] {
        SshHostKey key;
        ssh_session session = newSshSession(options, timeoutMs);
        if (!session) {
            key.error = RedisError(RedisError::Kind::Io,
                QCoreApplication::translate("LockScope::SshHostKeyProbe", "SSH %1: out of memory")
                    .arg(options.display()),
                "SSH");
        } else if (ssh_connect(session) != SSH_OK) {
            key.error = RedisError(RedisError::Kind::Io,
                QCoreApplication::translate("LockScope::SshHostKeyProbe", "SSH %1: cannot connect: %2")
                    .arg(options.display(), QString::fromUtf8(ssh_get_error(session))),
                "SSH");
        } else {
            SshOptions asking = options;
            asking.acceptHostKey.clear(); // a probe only looks: it never writes known_hosts
            key = checkSshHostKey(session, asking);
            ssh_disconnect(session);
        }
        if (session)
            ssh_free(session);
        mailbox->post([self, key] {
            self->m_answered = true;
            emit self->finished(key);
        });
    });
}

} // namespace LockScope
