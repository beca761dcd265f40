#include "connectiondialog.h"

#include "profiles/profileimport.h"
#include "redis/redisrouter.h"
#include "sshfields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace LockScope {

ConnectionDialog::ConnectionDialog(SecretStore *secrets, QWidget *parent)
    : QDialog(parent)
    , m_secrets(secrets)
    , m_profiles(ConnectionProfile::load())
{
    setWindowTitle(tr("Connect to Redis"));
    // Three pages, so the dialog fits a laptop screen: where the server is, how the connection is secured (TLS, SSH),
    // and how locks are looked for and written.
    auto *layout = new QVBoxLayout(this);
    auto *tabs = new QTabWidget(this);
    auto *serverPage = new QWidget(tabs);
    auto *securityPage = new QWidget(tabs);
    auto *locksPage = new QWidget(tabs);
    auto *form = new QFormLayout(serverPage);
    auto *security = new QFormLayout(securityPage);
    auto *locks = new QFormLayout(locksPage);
    tabs->addTab(serverPage, tr("Ser&ver"));
    tabs->addTab(securityPage, tr("TLS and SS&H"));
    tabs->addTab(locksPage, tr("Loc&ks and replicas"));
    layout->addWidget(tabs);
    m_profileBox = new QComboBox(this);
    m_profileBox->addItem(tr("New connection"));
    for (const ConnectionProfile &p : std::as_const(m_profiles))
        m_profileBox->addItem(p.name);
    m_profileBox->setAccessibleName(tr("Saved profiles"));
    m_recentBox = new QComboBox(this);
    m_recentBox->addItem(tr("Recent connections…"));
    m_recentBox->addItems(ConnectionProfile::recent());
    m_name = new QLineEdit(this);
    m_url = new QLineEdit(this);
    m_url->setPlaceholderText(QStringLiteral("redis://user@host:6379/0  ·  rediss://host:6380"));
    m_url->setAccessibleName(tr("Redis URL"));
    m_password = new QLineEdit(this);
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setAccessibleName(tr("Password"));
    m_remember = new QCheckBox(tr("Remember in the system keychain"), this);
    m_remember->setEnabled(m_secrets && m_secrets->available());
    if (!m_remember->isEnabled())
        m_remember->setToolTip(tr("No keychain is available: the password is asked for each time"));
    m_ca = new QLineEdit(this);
    m_cert = new QLineEdit(this);
    m_key = new QLineEdit(this);
    m_serverName = new QLineEdit(this);
    m_readOnly = new QCheckBox(tr("Read-only: never write to this server"), this);
    m_production = new QCheckBox(tr("Production: a force release needs the lock's name typed to confirm"), this);
    m_pattern = new QLineEdit(QStringLiteral("*"), this);
    m_colour = new QComboBox(this);
    m_colour->addItem(tr("No colour"), QString());
    m_colour->addItem(tr("Red (production)"), QStringLiteral("#c62828"));
    m_colour->addItem(tr("Orange (staging)"), QStringLiteral("#ef6c00"));
    m_colour->addItem(tr("Green (development)"), QStringLiteral("#2e7d32"));
    m_colour->addItem(tr("Blue"), QStringLiteral("#1565c0"));
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    form->addRow(tr("&Profile:"), m_profileBox);
    form->addRow(QString(), m_recentBox);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&URL:"), m_url);
    form->addRow(tr("Pass&word:"), m_password);
    // The URL means something else through a tunnel (the server as the SSH host sees it): said where the URL is.
    auto *route = new QLabel(serverPage);
    route->setWordWrap(true);
    route->setStyleSheet(QStringLiteral("QLabel { color: #00695c; }"));
    route->hide();
    form->addRow(QString(), route);
    form->addRow(QString(), m_remember);
    security->addRow(tr("TLS CA file:"), m_ca);
    security->addRow(tr("TLS client certificate:"), m_cert);
    security->addRow(tr("TLS client key:"), m_key);
    security->addRow(tr("TLS server name:"), m_serverName);
    m_ssh = new SshFields(this);
    security->addRow(m_ssh);
    connect(m_ssh, &SshFields::changed, this, [this, route] {
        const QString target = m_ssh->target();
        route->setText(tr("Through SSH %1 (TLS and SSH tab): the URL names the server as that host sees it.")
                           .arg(target.isEmpty() ? tr("(no host yet)") : target));
        route->setVisible(m_ssh->isChecked());
    });
    form->addRow(QString(), m_readOnly);
    form->addRow(QString(), m_production);
    locks->addRow(tr("Scan &pattern:"), m_pattern);
    m_stringPatterns = new QLineEdit(ConnectionProfile::defaultStringPatterns(), this);
    m_stringPatterns->setAccessibleName(tr("String lock patterns"));
    m_stringPatterns->setToolTip(
        tr("Globs separated by spaces. A plain string key (SET name token NX PX) is shown as a lock only if its name "
           "matches one of these and it has a TTL; its value is the holder's token. Empty: string locks are not "
           "looked for."));
    locks->addRow(tr("St&ring lock patterns:"), m_stringPatterns);
    form->addRow(tr("&Colour tag:"), m_colour);
    m_topology = new QComboBox(this);
    m_topology->addItem(tr("One server, or a cluster found from it"), QStringLiteral("auto"));
    m_topology->addItem(tr("Redis Cluster (the URL is a seed node)"), QStringLiteral("cluster"));
    m_topology->addItem(tr("Sentinel (the master is looked up by name)"), QStringLiteral("sentinel"));
    m_sentinels = new QLineEdit(this);
    m_sentinels->setPlaceholderText(QStringLiteral("10.0.0.1:26379,10.0.0.2:26379"));
    m_master = new QLineEdit(this);
    m_master->setPlaceholderText(QStringLiteral("mymaster"));
    const auto sentinelFields = [this] {
        const bool sentinel = m_topology->currentData().toString() == QLatin1String("sentinel");
        m_sentinels->setEnabled(sentinel);
        m_master->setEnabled(sentinel);
    };
    connect(m_topology, &QComboBox::currentIndexChanged, this, sentinelFields);
    sentinelFields();
    m_publishMode = new QComboBox(this);
    m_publishMode->addItem(tr("Automatic (sharded in a Redis 7 cluster, else plain)"), QStringLiteral("auto"));
    m_publishMode->addItem(tr("Plain PUBLISH"), QStringLiteral("plain"));
    m_publishMode->addItem(tr("Sharded SPUBLISH (Redisson 3.22+ on a cluster)"), QStringLiteral("sharded"));
    m_publishMode->addItem(tr("Both (a fleet that mixes them)"), QStringLiteral("both"));
    m_publishMode->setToolTip(tr("How releases wake the waiters. Plain and sharded channels are separate: a waiter "
                                 "on one never hears a release published on the other."));
    form->addRow(tr("&Topology:"), m_topology);
    form->addRow(tr("Sentinels:"), m_sentinels);
    form->addRow(tr("Sentinel master:"), m_master);
    locks->addRow(tr("Wake-ups &published as:"), m_publishMode);
    m_replicaReads = new QCheckBox(tr("Monitor reads from replicas (cluster): spares the masters, shows data as old "
                                      "as the replication lag"),
        this);
    locks->addRow(QString(), m_replicaReads);
    m_replicaSync = new QSpinBox(this);
    m_replicaSync->setRange(0, 60000);
    m_replicaSync->setSingleStep(100);
    m_replicaSync->setSuffix(tr(" ms"));
    m_replicaSync->setSpecialValueText(tr("never wait"));
    m_replicaSync->setToolTip(tr("After a lock write on a master with replicas, wait this long for them to have it "
                                 "(WAIT), as Redisson's slavesSyncTimeout does"));
    locks->addRow(tr("Wait for &replicas:"), m_replicaSync);
    m_replicaCheck = new QCheckBox(
        tr("Undo an acquire that no replica acknowledged in time (Redisson's checkLockSyncedSlaves)"), this);
    locks->addRow(QString(), m_replicaCheck);
    layout->addWidget(m_result);
    auto *buttons = new QDialogButtonBox(this);
    m_test = buttons->addButton(tr("&Test connection"), QDialogButtonBox::ActionRole);
    auto *save = buttons->addButton(tr("&Save profile"), QDialogButtonBox::ActionRole);
    auto *import = buttons->addButton(tr("&Import…"), QDialogButtonBox::ActionRole);
    import->setToolTip(tr("Profiles from RESP.app, Another Redis Desktop Manager or Tiny RDM (their exported or saved "
                          "connections), or a list of redis:// URLs"));
    connect(import, &QPushButton::clicked, this, &ConnectionDialog::chooseImportFile);
    m_connect = buttons->addButton(tr("C&onnect"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    layout->addWidget(buttons);

    connect(m_profileBox, &QComboBox::currentIndexChanged, this, &ConnectionDialog::loadProfile);
    connect(m_recentBox, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            m_url->setText(m_recentBox->itemText(index));
    });
    // A paste arrives as one edit of many characters; typing is taken apart only once it is finished.
    connect(m_url, &QLineEdit::textEdited, this, [this](const QString &text) {
        if (text.size() > m_lastUrlLength + 1)
            urlEdited(text);
        m_lastUrlLength = int(m_url->text().size());
    });
    connect(m_url, &QLineEdit::editingFinished, this, [this] { urlEdited(m_url->text()); });
    connect(m_test, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(save, &QPushButton::clicked, this, &ConnectionDialog::saveProfile);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        RedisError error;
        options(&error);
        if (error.isError()) {
            m_result->setText(error.message());
            return;
        }
        rememberPasswords(profile().name);
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void ConnectionDialog::urlEdited(const QString &text)
{
    // A pasted URL with a password: the password moves to its own field and out of the URL (and of any profile).
    QByteArray password;
    RedisError error;
    const ConnectionProfile parsed = ConnectionProfile::fromUrl(text, &password, &error);
    if (error.isError())
        return;
    if (!password.isEmpty()) {
        m_password->setText(QString::fromUtf8(password));
        m_url->setText(parsed.url);
    }
    if (m_name->text().isEmpty())
        m_name->setText(parsed.name);
}

void ConnectionDialog::loadProfile(int index)
{
    if (index <= 0 || index > m_profiles.size())
        return;
    const ConnectionProfile &p = m_profiles.at(index - 1);
    m_name->setText(p.name);
    m_url->setText(p.url);
    m_ca->setText(p.tlsCaFile);
    m_cert->setText(p.tlsCertFile);
    m_key->setText(p.tlsKeyFile);
    m_serverName->setText(p.tlsServerName);
    m_readOnly->setChecked(p.readOnly);
    m_production->setChecked(p.production);
    m_pattern->setText(p.pattern);
    m_colour->setCurrentIndex(qMax(0, m_colour->findData(ConnectionProfile::colourName(p.colour))));
    m_topology->setCurrentIndex(qMax(0, m_topology->findData(p.topology)));
    m_sentinels->setText(p.sentinels);
    m_master->setText(p.sentinelMaster);
    m_publishMode->setCurrentIndex(qMax(0, m_publishMode->findData(p.publishMode)));
    m_replicaReads->setChecked(p.replicaReads);
    m_replicaSync->setValue(p.replicaSyncTimeoutMs);
    m_replicaCheck->setChecked(p.checkSyncedReplicas);
    m_stringPatterns->setText(p.stringPatterns);
    m_ssh->load(p);
    m_password->clear();
    if (m_secrets && m_secrets->available()) {
        QPointer<ConnectionDialog> self(this);
        m_secrets->read(p.name, [self](const QByteArray &secret) {
            if (self)
                self->m_password->setText(QString::fromUtf8(secret));
        });
        if (!p.ssh.isEmpty()) {
            m_secrets->read(ConnectionProfile::sshSecretName(p.name), [self](const QByteArray &secret) {
                if (self)
                    self->m_ssh->setPassword(secret);
            });
        }
    }
}

void ConnectionDialog::rememberPasswords(const QString &profile)
{
    if (!m_remember->isChecked() || !m_secrets)
        return;
    if (!m_password->text().isEmpty())
        m_secrets->write(profile, m_password->text().toUtf8());
    if (!m_ssh->password().isEmpty())
        m_secrets->write(ConnectionProfile::sshSecretName(profile), m_ssh->password());
}

ConnectionProfile ConnectionDialog::profile() const
{
    ConnectionProfile p;
    p.name = m_name->text().trimmed();
    p.url = m_url->text().trimmed();
    p.tlsCaFile = m_ca->text();
    p.tlsCertFile = m_cert->text();
    p.tlsKeyFile = m_key->text();
    p.tlsServerName = m_serverName->text();
    p.readOnly = m_readOnly->isChecked();
    p.production = m_production->isChecked();
    p.pattern = m_pattern->text().isEmpty() ? QStringLiteral("*") : m_pattern->text();
    p.colour = ConnectionProfile::colourName(m_colour->currentData().toString());
    p.topology = m_topology->currentData().toString();
    p.sentinels = m_sentinels->text().trimmed();
    p.sentinelMaster = m_master->text().trimmed();
    p.publishMode = m_publishMode->currentData().toString();
    p.replicaReads = m_replicaReads->isChecked();
    p.replicaSyncTimeoutMs = m_replicaSync->value();
    p.checkSyncedReplicas = m_replicaCheck->isChecked();
    p.stringPatterns = m_stringPatterns->text().simplified();
    m_ssh->store(&p);
    return p;
}

ConnectionOptions ConnectionDialog::options(RedisError *error) const
{
    return profile().options(m_password->text().toUtf8(), error, m_ssh->password());
}

void ConnectionDialog::saveProfile()
{
    const ConnectionProfile p = profile();
    if (p.name.isEmpty()) {
        m_result->setText(tr("A profile needs a name"));
        return;
    }
    bool replaced = false;
    for (ConnectionProfile &existing : m_profiles) {
        if (existing.name == p.name) {
            existing = p;
            replaced = true;
        }
    }
    if (!replaced) {
        m_profiles << p;
        m_profileBox->addItem(p.name);
    }
    ConnectionProfile::save(m_profiles);
    rememberPasswords(p.name);
    m_result->setText(tr("Saved profile %1 (without its password)").arg(p.name));
}

void ConnectionDialog::chooseImportFile()
{
    auto *chooser = new QFileDialog(this, tr("Import connections"));
    chooser->setFileMode(QFileDialog::ExistingFile);
    chooser->setNameFilters({ tr("Connection files (*.json *.ano *.yaml *.yml *.zip *.txt)"), tr("All files (*)") });
    chooser->setAttribute(Qt::WA_DeleteOnClose);
    connect(chooser, &QFileDialog::fileSelected, this, &ConnectionDialog::importFrom);
    chooser->open();
}

void ConnectionDialog::importFrom(const QString &fileName)
{
    const ProfileImport import = importProfiles(fileName);
    const int before = int(m_profiles.size());
    m_result->setText(addImported(import, &m_profiles, m_secrets));
    if (m_profiles.size() == before)
        return;
    ConnectionProfile::save(m_profiles);
    for (int i = before; i < m_profiles.size(); ++i)
        m_profileBox->addItem(m_profiles.at(i).name);
    m_profileBox->setCurrentIndex(before + 1); // the first one imported, to look at
}

void ConnectionDialog::testConnection()
{
    RedisError error;
    ConnectionOptions o = options(&error);
    if (error.isError()) {
        m_result->setText(error.message());
        return;
    }
    o.autoReconnect = false;
    o.readOnly = true; // a test only reads
    o.connectTimeoutMs = 3000;
    o.commandTimeoutMs = 3000;
    delete m_probe;
    m_probe = new RedisRouter(o, this);
    m_result->setText(tr("Connecting to %1…").arg(o.toDisplayTarget()));
    m_test->setEnabled(false);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QPointer<ConnectionDialog> self(this);
    RedisRouter *probe = m_probe;
    probe->command({ "PING" }, [self, probe, clock](const RedisResult &ping) {
        if (!self || self->m_probe != probe)
            return;
        const double rtt = clock->nsecsElapsed() / 1e6;
        if (!ping.ok()) {
            self->m_result->setText(tr("Failed: %1").arg(ping.error.message()));
            self->m_test->setEnabled(true);
            return;
        }
        probe->command({ "INFO", "server" }, [self, probe, rtt](const RedisResult &info) {
            if (!self || self->m_probe != probe)
                return;
            QString version = tr("unknown version");
            for (const QByteArray &line : info.value.bytes().split('\n'))
                if (line.startsWith("redis_version:"))
                    version = QString::fromLatin1(line.mid(14).trimmed());
            self->m_result->setText(tr("Connected: Redis %1, first reply after %2 ms").arg(version).arg(rtt, 0, 'f', 1)
                + QStringLiteral(" · ") + probe->describe());
            self->m_test->setEnabled(true);
        });
    });
}

} // namespace LockScope
