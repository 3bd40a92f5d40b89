//! The secret rule table: one entry per format, written from the published token shapes
//! (reference §1.1), compiled as ASCII byte regexes. Provider rules come first so that, when
//! findings overlap, the specific rule id wins over the generic ones at the end.

/// Extra validation a rule's candidate must pass, beyond the regex and the entropy floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The regex and entropy floor decide alone.
    None,
    /// Drop AWS's documented example keys (they end in `EXAMPLE`).
    NotAwsExample,
    /// Base64 text must decode to a PEM `PRIVATE KEY` header.
    PemBase64,
    /// Drop placeholders (`${VAR}`, `<token>`, `****`, …) and short pure-letter words.
    NotPlaceholder,
    /// Drop placeholders only: a plain word is a fine password here.
    Literal,
    /// URL userinfo: placeholders out; a bare `token@host` needs entropy and a digit.
    UrlUserinfo,
    /// Name/value assignment: classify the name, then the value (see `generic.rs`).
    Assignment,
    /// A random token: at least one digit and one letter (a word is not a key).
    Mixed,
}

/// One secret format.
#[derive(Debug)]
pub(crate) struct Rule {
    /// Stable kebab-case id, shown in `[REDACTED:<id>]`.
    pub id: &'static str,
    #[cfg_attr(not(test), allow(dead_code))] // read by the tests that list every rule
    pub description: &'static str,
    /// Lowercase literals; the rule's regex runs only when one occurs (ASCII case-insensitive).
    pub keywords: &'static [&'static str],
    /// The secret is the first participating group whose name starts with `s`, or the whole
    /// match when the pattern has no such group.
    pub pattern: &'static str,
    /// Shannon entropy (bits/byte) the secret must exceed; 0 disables the floor.
    pub min_entropy: f64,
    pub check: Check,
}

const fn rule(
    id: &'static str,
    description: &'static str,
    keywords: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        id,
        description,
        keywords,
        pattern,
        min_entropy: 0.0,
        check: Check::None,
    }
}

const fn with(mut r: Rule, min_entropy: f64, check: Check) -> Rule {
    r.min_entropy = min_entropy;
    r.check = check;
    r
}

// Patterns avoid negated classes next to a group boundary where the neighbour could be a
// non-ASCII byte, so every secret range starts and ends on a UTF-8 char boundary.
pub(crate) static RULES: &[Rule] = &[
    // ---- cloud providers ----
    with(
        rule(
            "aws-access-key-id",
            "AWS access key id (AKIA/ASIA/ABIA/ACCA/A3T…)",
            &["akia", "asia", "abia", "acca", "a3t"],
            r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b",
        ),
        0.0,
        Check::NotAwsExample,
    ),
    rule(
        "aws-secret-access-key",
        "AWS secret access key after an aws_secret_access_key-like name",
        &["aws", "secret"],
        r#"(?i)(?:aws_?secret_?(?:access_?)?key|secret[ _]?(?:access[ _]?)?key|aws_?secret)["']?\s*(?:=>|:=|[:=])\s*["']?(?P<s>[A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#,
    ),
    rule(
        "aws-bedrock-api-key",
        "AWS Bedrock long-lived API key (ABSK…)",
        &["absk"],
        r"\bABSK[A-Za-z0-9+/]{100,280}={0,2}",
    ),
    rule(
        "google-api-key",
        "Google API key (AIza…)",
        &["aiza"],
        r"\bAIza[A-Za-z0-9_-]{35}",
    ),
    rule(
        "google-oauth-client-secret",
        "Google OAuth client secret (GOCSPX-…)",
        &["gocspx-"],
        r"\bGOCSPX-[A-Za-z0-9_-]{20,40}",
    ),
    rule(
        "google-oauth-access-token",
        "Google OAuth access token (ya29.…)",
        &["ya29."],
        r"\bya29\.[A-Za-z0-9_-]{20,}",
    ),
    rule(
        "azure-ad-client-secret",
        "Azure AD / Entra client secret (…Q~…)",
        &["q~"],
        r"(?:^|[^A-Za-z0-9_~.-])(?P<s>[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:[^A-Za-z0-9_~.-]|$)",
    ),
    rule(
        "azure-connection-string",
        "Azure storage / Service Bus / IoT / App Configuration connection-string key",
        &["accountkey", "sharedaccesskey", ";secret="],
        r"(?i)(?:\b(?:AccountKey|SharedAccessKey)\s*=\s*|;Secret=)(?P<s>[A-Za-z0-9+/]{20,200}={0,2})",
    ),
    rule(
        "azure-devops-pat",
        "Azure DevOps personal access token (84 chars, AZDO marker)",
        &["azdo"],
        r"\b[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}\b",
    ),
    rule(
        "digitalocean-token",
        "DigitalOcean personal / OAuth / refresh token",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        r"\bdo[opr]_v1_[a-f0-9]{64}\b",
    ),
    rule(
        "heroku-api-key",
        "Heroku API key (HRKU-AA…)",
        &["hrku-"],
        r"\bHRKU-AA[A-Za-z0-9_-]{50,70}",
    ),
    // ---- source hosting and package registries ----
    rule(
        "github-pat",
        "GitHub classic personal access token (ghp_)",
        &["ghp_"],
        r"\bghp_[A-Za-z0-9]{30,255}\b",
    ),
    rule(
        "github-oauth",
        "GitHub OAuth access token (gho_)",
        &["gho_"],
        r"\bgho_[A-Za-z0-9]{30,255}\b",
    ),
    rule(
        "github-app-token",
        "GitHub App user-to-server / server-to-server token (ghu_, ghs_)",
        &["ghu_", "ghs_"],
        r"\bgh[us]_[A-Za-z0-9]{30,255}\b",
    ),
    rule(
        "github-refresh-token",
        "GitHub refresh token (ghr_)",
        &["ghr_"],
        r"\bghr_[A-Za-z0-9]{30,255}\b",
    ),
    rule(
        "github-fine-grained-pat",
        "GitHub fine-grained personal access token (github_pat_)",
        &["github_pat_"],
        r"\bgithub_pat_[A-Za-z0-9_]{50,255}",
    ),
    rule(
        "gitlab-token",
        "GitLab PAT, pipeline/runner/deploy/feed/OAuth tokens and runner registration tokens",
        &[
            "glpat-",
            "glptt-",
            "glrt-",
            "gldt-",
            "glft-",
            "glsoat-",
            "glcbt-",
            "glimt-",
            "glagent-",
            "gloas-",
            "glffct-",
            "gr1348941",
        ],
        r"\b(?:(?:glpat|glptt|glrt|gldt|glft|glsoat|glcbt|glimt|glagent|gloas|glffct)-[A-Za-z0-9_.-]{20,300}|GR1348941[A-Za-z0-9_-]{20,})",
    ),
    rule(
        "bitbucket-app-password",
        "Bitbucket app password (ATBB…)",
        &["atbb"],
        r"\bATBB[A-Za-z0-9]{28,40}\b",
    ),
    rule(
        "atlassian-api-token",
        "Atlassian / Jira API token (ATATT3…)",
        &["atatt3"],
        r"\bATATT3[A-Za-z0-9_=-]{100,300}",
    ),
    rule(
        "npm-token",
        "npm access token (npm_)",
        &["npm_"],
        r"\bnpm_[A-Za-z0-9]{36}\b",
    ),
    rule(
        "pypi-token",
        "PyPI / TestPyPI upload token (pypi-AgE…)",
        &["pypi-age"],
        r"\bpypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{40,}",
    ),
    with(
        rule(
            "cratesio-token",
            "crates.io API token (cio…)",
            &["cio"],
            r"\bcio[A-Za-z0-9]{32}\b",
        ),
        3.0,
        Check::None,
    ),
    rule(
        "rubygems-api-key",
        "RubyGems API key (rubygems_)",
        &["rubygems_"],
        r"\brubygems_[a-f0-9]{48}\b",
    ),
    rule(
        "nuget-api-key",
        "NuGet API key (oy2…)",
        &["oy2"],
        r"\boy2[a-z0-9]{43}\b",
    ),
    rule(
        "dockerhub-token",
        "Docker Hub personal / organisation access token (dckr_pat_, dckr_oat_)",
        &["dckr_pat_", "dckr_oat_"],
        r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}",
    ),
    rule(
        "artifactory-token",
        "JFrog Artifactory API key / reference token (AKCp…, cmVmd…)",
        &["akcp", "cmvmd"],
        r"\b(?:AKCp[A-Za-z0-9]{60,80}|cmVmd[A-Za-z0-9]{55,65})\b",
    ),
    // ---- AI providers ----
    rule(
        "openai-api-key",
        "OpenAI API key (sk-proj-/sk-svcacct-/sk-admin-, legacy T3BlbkFJ marker)",
        &["t3blbkfj", "sk-proj-", "sk-svcacct-", "sk-admin-"],
        r"\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,300}|[A-Za-z0-9_-]{10,200}T3BlbkFJ[A-Za-z0-9_-]{10,200})",
    ),
    with(
        rule(
            "sk-api-key",
            "`sk-` key without a provider marker (OpenAI legacy 48 letters and digits, DeepSeek 32 hex, Moonshot, …)",
            &["sk-"],
            r"\bsk-[A-Za-z0-9]{32,200}\b",
        ),
        3.0,
        Check::Mixed,
    ),
    rule(
        "anthropic-api-key",
        "Anthropic API key or OAuth token (sk-ant-api03-, sk-ant-oat01-, …)",
        &["sk-ant-"],
        r"\bsk-ant-(?:api|oat|ort|sid)[0-9]{2}-[A-Za-z0-9_-]{32,200}",
    ),
    rule(
        "anthropic-admin-key",
        "Anthropic admin API key (sk-ant-admin01-)",
        &["sk-ant-admin"],
        r"\bsk-ant-admin[0-9]{2}-[A-Za-z0-9_-]{32,200}",
    ),
    rule(
        "huggingface-token",
        "Hugging Face access token (hf_)",
        &["hf_"],
        r"\bhf_[A-Za-z0-9]{30,40}\b",
    ),
    rule(
        "perplexity-api-key",
        "Perplexity API key (pplx-)",
        &["pplx-"],
        r"\bpplx-[A-Za-z0-9]{40,60}\b",
    ),
    rule(
        "groq-api-key",
        "Groq API key (gsk_)",
        &["gsk_"],
        r"\bgsk_[A-Za-z0-9]{40,60}\b",
    ),
    rule(
        "xai-api-key",
        "xAI API key (xai-)",
        &["xai-"],
        r"\bxai-[A-Za-z0-9]{60,100}\b",
    ),
    rule(
        "openrouter-api-key",
        "OpenRouter API key (sk-or-v1-)",
        &["sk-or-v1-"],
        r"\bsk-or-v1-[a-f0-9]{64}\b",
    ),
    rule(
        "replicate-api-token",
        "Replicate API token (r8_)",
        &["r8_"],
        r"\br8_[A-Za-z0-9]{37}\b",
    ),
    rule(
        "langsmith-api-key",
        "LangSmith API key (lsv2_pt_/lsv2_sk_)",
        &["lsv2_"],
        r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b",
    ),
    rule(
        "tavily-api-key",
        "Tavily API key (tvly-)",
        &["tvly-"],
        r"\btvly-(?:dev-|prod-)?[A-Za-z0-9]{28,40}\b",
    ),
    rule(
        "jina-api-key",
        "Jina AI API key (jina_)",
        &["jina_"],
        r"\bjina_[A-Za-z0-9]{40,80}\b",
    ),
    with(
        rule(
            "firecrawl-api-key",
            "Firecrawl API key (fc-)",
            &["fc-"],
            r"\bfc-[a-f0-9]{32}\b",
        ),
        3.0,
        Check::None,
    ),
    // ---- messaging, payments, SaaS ----
    rule(
        "slack-bot-token",
        "Slack bot token (xoxb-)",
        &["xoxb-"],
        r"\bxoxb-[0-9]{8,14}-(?:[0-9]{8,14}-)?[A-Za-z0-9]{20,40}\b",
    ),
    rule(
        "slack-user-token",
        "Slack user / legacy / refresh / config token (xoxp-, xoxe-, xoxa-, xoxr-, xoxs-, xoxo-)",
        &[
            "xoxp-", "xoxe-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe.",
        ],
        r"\bxox(?:[paros]|e(?:\.xox[bp])?)-[0-9]{1,2}?-?(?:[0-9]{6,14}-){1,3}[A-Za-z0-9-]{10,200}\b|\bxox[pe]-[A-Za-z0-9-]{30,200}\b",
    ),
    rule(
        "slack-app-token",
        "Slack app-level token (xapp-)",
        &["xapp-"],
        r"\bxapp-[A-Za-z0-9/+-]{20,200}",
    ),
    rule(
        "slack-webhook-url",
        "Slack incoming webhook / workflow trigger URL",
        &["hooks.slack.com"],
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<s>[A-Za-z0-9+/_-]{20,200})",
    ),
    rule(
        "telegram-bot-token",
        "Telegram bot token (<id>:AA…)",
        &[":aa"],
        r"\b[0-9]{8,10}:AA[A-Za-z0-9_-]{30,40}\b",
    ),
    rule(
        "stripe-secret-key",
        "Stripe secret / restricted key (sk_/rk_ live/test)",
        &[
            "sk_live", "sk_test", "sk_prod", "rk_live", "rk_test", "rk_prod",
        ],
        r"\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,255}\b",
    ),
    rule(
        "stripe-webhook-secret",
        "Stripe webhook signing secret (whsec_)",
        &["whsec_"],
        r"\bwhsec_[A-Za-z0-9+/=]{24,}",
    ),
    rule(
        "sendgrid-api-key",
        "SendGrid API key (SG.…)",
        &["sg."],
        r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,64}",
    ),
    with(
        rule(
            "twilio-api-key",
            "Twilio API key SID (SK + 32 hex)",
            &["sk"],
            r"\bSK[0-9a-fA-F]{32}\b",
        ),
        2.5,
        Check::None,
    ),
    rule(
        "mailgun-api-key",
        "Mailgun private API key (key-…)",
        &["key-"],
        r"\bkey-[0-9a-f]{32}\b",
    ),
    rule(
        "shopify-token",
        "Shopify access / custom app / private app / shared secret (shpat_, shpca_, shppa_, shpss_)",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
    ),
    rule(
        "square-token",
        "Square access token / OAuth secret (sq0atp-, sq0csp-, EAAA…)",
        &["sq0atp-", "sq0csp-", "sq0atb-", "eaaa"],
        r"\b(?:sq0(?:atp|csp|atb)-[A-Za-z0-9_-]{22,60}|EAAA[A-Za-z0-9_-]{60}\b)",
    ),
    rule(
        "facebook-access-token",
        "Facebook / Meta Graph access token (EAA…)",
        &["eaa"],
        r"\bEAA[A-Za-z0-9]{80,}",
    ),
    rule(
        "doppler-token",
        "Doppler token (dp.pt., dp.st., dp.ct., dp.sa., dp.scim., dp.audit.)",
        &["dp."],
        r"\bdp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}\b",
    ),
    rule(
        "grafana-token",
        "Grafana service-account token, Cloud token or legacy API key",
        &["glsa_", "glc_", "eyjrijoi"],
        r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2}|eyJrIjoi[A-Za-z0-9_=-]{42,})",
    ),
    rule(
        "sentry-token",
        "Sentry user / org auth token (sntryu_, sntrys_)",
        &["sntryu_", "sntrys_"],
        r"\bsntry[us]_[A-Za-z0-9+/=_]{40,}",
    ),
    rule(
        "databricks-token",
        "Databricks personal access token (dapi…)",
        &["dapi"],
        r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b",
    ),
    rule(
        "vault-token",
        "HashiCorp Vault service / batch / recovery token (hvs., hvb., hvr.)",
        &["hvs.", "hvb.", "hvr."],
        r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}",
    ),
    rule(
        "vault-unseal-key",
        "HashiCorp Vault unseal key",
        &["unseal"],
        r"(?i)\b(?:unseal key [0-9]+:|operator unseal)\s+(?P<s>[A-Za-z0-9+/]{40,}={0,2})",
    ),
    rule(
        "terraform-cloud-token",
        "Terraform Cloud / Enterprise API token (….atlasv1.…)",
        &["atlasv1"],
        r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,100}",
    ),
    rule(
        "notion-token",
        "Notion integration token (ntn_, legacy secret_)",
        &["ntn_", "secret_"],
        r"\b(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})\b",
    ),
    rule(
        "linear-api-key",
        "Linear API key (lin_api_, lin_oauth_)",
        &["lin_api_", "lin_oauth_"],
        r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b",
    ),
    rule(
        "newrelic-key",
        "New Relic user / ingest / query / REST / license key",
        &["nrak-", "nrii-", "nraa-", "nriq-", "nrra-", "nral"],
        r"\b(?:NR(?:AK|II|AA|IQ|RA|JS)-[A-Za-z0-9_-]{19,50}|[A-Za-z0-9]{36}NRAL)\b",
    ),
    rule(
        "sourcegraph-token",
        "Sourcegraph / Segment access token (sgp_)",
        &["sgp_"],
        r"\bsgp_(?:local_|[a-f0-9]{16}_)?[A-Za-z0-9]{40,64}\b",
    ),
    rule(
        "postman-api-key",
        "Postman API key (PMAK-)",
        &["pmak-"],
        r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b",
    ),
    rule(
        "figma-token",
        "Figma personal access token (figd_)",
        &["figd_"],
        r"\bfigd_[A-Za-z0-9_-]{40,}",
    ),
    rule(
        "dropbox-token",
        "Dropbox short-lived access token (sl.…)",
        &["sl."],
        r"\bsl\.(?:u\.)?[A-Za-z0-9_-]{100,}",
    ),
    rule(
        "mapbox-secret-token",
        "Mapbox secret / temporary token (sk.eyJ…, tk.eyJ…)",
        &["sk.eyj", "tk.eyj"],
        r"\b[st]k\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}",
    ),
    rule(
        "dependency-track-key",
        "Dependency-Track API key (odt_)",
        &["odt_"],
        r"\bodt_[A-Za-z0-9]{32,40}\b",
    ),
    rule(
        "sonarqube-token",
        "SonarQube token (squ_, sqp_, sqa_; legacy 40-hex sonar.login)",
        &["squ_", "sqp_", "sqa_", "sonar"],
        r#"\b(?P<s1>sq[upa]_[a-f0-9]{40})\b|(?i:sonar[._]?login)["']?\s*(?:[=:,]\s*)?["']?(?P<s2>[a-f0-9]{40})\b"#,
    ),
    rule(
        "twitch-stream-key",
        "Twitch stream key (live_<id>_…)",
        &["live_"],
        r"\blive_[0-9]{6,12}_[A-Za-z0-9]{30}\b",
    ),
    rule(
        "salesforce-access-token",
        "Salesforce session / access token (00D…!…)",
        &["00d"],
        r"\b00D[A-Za-z0-9]{12}![A-Za-z0-9._]{80,}",
    ),
    rule(
        "stackhawk-api-key",
        "StackHawk API key (hawk.…)",
        &["hawk."],
        r"\bhawk\.[A-Za-z0-9_-]{20}\.[A-Za-z0-9_-]{20}\b",
    ),
    rule(
        "mailchimp-api-key",
        "Mailchimp API key (32 hex + -usN datacenter)",
        &["-us"],
        r"\b[0-9a-f]{32}-us[0-9]{1,2}\b",
    ),
    rule(
        "adafruit-io-key",
        "Adafruit IO key (aio_)",
        &["aio_"],
        r"\baio_[A-Za-z0-9]{28}\b",
    ),
    rule(
        "msteams-webhook-url",
        "Microsoft Teams / Office 365 incoming webhook URL",
        &["/webhook"],
        r"(?i)(?:outlook\.office(?:365)?\.com|[a-z0-9-]+\.webhook\.office\.com)/webhook(?:b2)?/(?P<s>[A-Za-z0-9@/%_-]{60,400})",
    ),
    rule(
        "dynatrace-token",
        "Dynatrace API / PaaS token (dt0c01.…)",
        &["dt0"],
        r"\bdt0[a-z][0-9]{2}\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b",
    ),
    with(
        rule(
            "okta-api-token",
            "Okta API token (00 + 40 chars) near the word okta",
            &["okta"],
            r"(?i)okta[\s\S]{0,200}?\b(?P<s>00[A-Za-z0-9_-]{40})\b",
        ),
        3.0,
        Check::None,
    ),
    // ---- keys and token formats ----
    rule(
        "private-key",
        "PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), also with \\n escapes",
        &["-----begin"],
        r#"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s"'+\\,:._-]*)"#,
    ),
    with(
        rule(
            "private-key-base64",
            "Base64-encoded PEM private key (LS0tLS1CRUdJTi…)",
            &["ls0tls1crudjti"],
            r"\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}",
        ),
        0.0,
        Check::PemBase64,
    ),
    rule(
        "age-secret-key",
        "age encryption secret key (AGE-SECRET-KEY-1…)",
        &["age-secret-key-1"],
        r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b",
    ),
    rule(
        "jwt",
        "JSON Web Token (eyJ….eyJ….sig)",
        &["eyj"],
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*",
    ),
    // ---- context rules: URLs, headers, command lines, config ----
    with(
        rule(
            "url-credentials",
            "Credentials in a URL (scheme://user:password@host, scheme://token@host)",
            &["://"],
            r#"(?i)\b[a-z][a-z0-9+.-]{1,30}://(?:[^\s:@/?#"'<>`]{0,200}:(?P<s1>[^\s/"'<>`]{1,300})|(?P<s2>[A-Za-z0-9_-]{16,200}))@[A-Za-z0-9\[_-]"#,
        ),
        0.0,
        Check::UrlUserinfo,
    ),
    with(
        rule(
            "auth-header",
            "HTTP Authorization / Proxy-Authorization header value (Bearer, Basic, token, …)",
            &["authorization"],
            r#"(?i)\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot|ssws|digest|apikey|api-key|key|sso-key|otp|negotiate|ntlm)\s+)?(?P<s>[A-Za-z0-9._~+/:-]{6,}=*)"#,
        ),
        2.0,
        Check::NotPlaceholder,
    ),
    with(
        rule(
            "bearer-token",
            "Bearer token outside an Authorization header",
            &["bearer"],
            r"(?i)\bbearer:?\s+(?P<s>[A-Za-z0-9._~+/-]{16,}=*)",
        ),
        2.5,
        Check::NotPlaceholder,
    ),
    with(
        rule(
            "curl-basic-auth",
            "curl -u / --user user:password",
            &["-u", "--user"],
            r#"(?i)\bcurl\b(?:[^\n]|\\\n){0,300}?\s(?:-u|--user)[ \t=]*["']?[^\s:"']{1,100}:(?P<s>[^\s"']{1,200})"#,
        ),
        0.0,
        Check::NotPlaceholder,
    ),
    with(
        rule(
            "cli-password-flag",
            "-p password on docker/podman/helm/psexec/mysql/sshpass command lines",
            &["-p"],
            r#"(?i)\b(?:(?:docker|podman|nerdctl|buildah|helm\s+registry)\s+login|psexec(?:\.exe)?|mysql|mysqldump|mysqladmin|sshpass|smbclient)\b[^\n]{0,200}?\s-p[ \t]*(?:"(?P<s1>[^"\n]{2,200})"|'(?P<s2>[^'\n]{2,200})'|(?P<s3>[^\s"'|;]{2,200}))"#,
        ),
        0.0,
        Check::Literal,
    ),
    with(
        rule(
            "cli-secret-flag",
            "--password / --token / --api-key style command-line flags (and PowerShell -Password)",
            &["pass", "pwd", "token", "secret", "key"],
            r#"(?i)(?:^|[\s"'`])--?(?P<n>[a-z0-9-]{0,40}(?:password|passwd|pwd|token|api-?key|secret|private-key))(?:=|[ \t]+)(?:"(?P<s1>[^"\n]{3,300})"|'(?P<s2>[^'\n]{3,300})'|(?P<s3>[^\s"'|;]{3,300}))"#,
        ),
        0.0,
        Check::Assignment,
    ),
    with(
        rule(
            "netrc-credentials",
            ".netrc machine/login/password entries",
            &["machine"],
            r"(?i)\bmachine\s+[^\s]+\s+(?:login\s+[^\s]+\s+)?password\s+(?P<s>[^\s]{1,300})",
        ),
        0.0,
        Check::NotPlaceholder,
    ),
    with(
        rule(
            "xml-config-secret",
            r#"XML/.NET config: key="…Password|Secret|Token…" value="…""#,
            &["value"],
            r#"(?i)\bkey\s*=\s*"(?P<n>[^"]{0,60}(?:pass|pwd|secret|token|apikey|api_key|credential)[^"]{0,20})"\s+value\s*=\s*"(?P<s>[^"]{1,400})""#,
        ),
        0.0,
        Check::Assignment,
    ),
    with(
        rule(
            "dotnet-credential-literal",
            "Password literal passed to NetworkCredential(user, pw) / DirectoryEntry(path, user, pw)",
            &["networkcredential", "directoryentry"],
            r#"(?i)\b(?:NetworkCredential\(\s*"[^"\n]*"\s*,|DirectoryEntry\(\s*"[^"\n]*"\s*,\s*"[^"\n]*"\s*,)\s*"(?P<s>[^"\n]{2,200})""#,
        ),
        0.0,
        Check::Literal,
    ),
    with(
        rule(
            "password-in-prose",
            "A quoted password stated in prose (\"the password is 'x'\")",
            &["password"],
            r#"(?i)\bpassword(?:\s+for\s+(?:the\s+)?(?:user\s+)?["']?[A-Za-z0-9@._-]{1,40}["']?)?\s+is\s*:?\s*(?:"(?P<s1>[^"\n]{2,64})"|'(?P<s2>[^'\n]{2,64})'|`(?P<s3>[^`\n]{2,64})`)"#,
        ),
        0.0,
        Check::Literal,
    ),
    with(
        rule(
            "generic-assignment",
            "Secret-named assignment (PASSWORD=…, api_key: …, \"client_secret\": \"…\", token => …)",
            &[
                "pass", "pwd", "secret", "token", "key", "auth", "cred", "_pat",
            ],
            r#"(?im)(?:^|[^A-Za-z0-9_.-])(?P<n>[A-Za-z0-9_.-]{0,60}?(?:pass|pwd|secret|token|key|auth|cred|_pat)[A-Za-z0-9_.-]{0,40}?)["'\]]?[ \t]*(?P<o>===|!==|==|!=|:=|=>|->|\|\||=|:|,)[ \t]*(?:\\?"(?P<s1>(?:[^"\\\n\r]|\\[^"\n\r]){1,400})\\?"|'(?P<s2>[^'\n\r]{1,400})'|`(?P<s3>[^`\n\r]{1,400})`|(?P<s4>[^\s"'`,;<>(){}\[\]|]{1,400})(?P<t>[(\[]?))"#,
        ),
        0.0,
        Check::Assignment,
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_keywords_lowercase() {
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "duplicate id {}", r.id);
            assert!(
                r.id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                r.id
            );
            assert!(!r.keywords.is_empty(), "{}", r.id);
            for k in r.keywords {
                assert_eq!(*k, k.to_ascii_lowercase(), "{}", r.id);
            }
        }
    }
}
