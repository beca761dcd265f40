#include "profiles/keychainstore.h"

#ifdef LOCKSCOPE_HAVE_QTKEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace LockScope {

namespace {
const QString kService = QStringLiteral("lockscope");
}

KeychainSecretStore::KeychainSecretStore()
{
#ifndef LOCKSCOPE_HAVE_QTKEYCHAIN
    m_available = false;
#endif
}

void KeychainSecretStore::read(const QString &profile, std::function<void(const QByteArray &secret)> done)
{
#ifdef LOCKSCOPE_HAVE_QTKEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(kService);
    job->setKey(profile);
    QObject::connect(job, &QKeychain::Job::finished, [this, job, done](QKeychain::Job *) {
        if (job->error() == QKeychain::NoBackendAvailable || job->error() == QKeychain::NotImplemented)
            m_available = false;
        done(job->error() == QKeychain::NoError ? job->binaryData() : QByteArray());
    });
    job->start();
#else
    Q_UNUSED(profile);
    done({});
#endif
}

void KeychainSecretStore::write(const QString &profile, const QByteArray &secret)
{
#ifdef LOCKSCOPE_HAVE_QTKEYCHAIN
    auto *job = new QKeychain::WritePasswordJob(kService);
    job->setKey(profile);
    job->setBinaryData(secret);
    QObject::connect(job, &QKeychain::Job::finished, [this, job](QKeychain::Job *) {
        if (job->error() == QKeychain::NoBackendAvailable || job->error() == QKeychain::NotImplemented)
            m_available = false;
    });
    job->start();
#else
    Q_UNUSED(profile);
    Q_UNUSED(secret);
#endif
}

SecretStore *KeychainSecretStore::create()
{
#ifdef LOCKSCOPE_HAVE_QTKEYCHAIN
    // Without a session bus no keychain backend can answer; don't offer one.
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return nullptr;
    return new KeychainSecretStore;
#else
    return nullptr;
#endif
}

} // namespace LockScope
