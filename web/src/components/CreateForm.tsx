import { useEffect, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { api, unwrap } from '../api/client';
import { initialDomain, readLastDomain, rememberDomain } from '../lib/domains';
import { isAdvanced, readAdvancedOpen, rememberAdvancedOpen } from '../lib/advanced';
import { errorText, shortFieldErrors, type ShortFieldErrors } from '../lib/errors';
import { rulesProblemAt, type RulesProblemAt } from '../lib/rules';
import { createBody, emptyValues } from '../lib/short-form';
import { auth } from '../state/auth';
import { cookies } from '../state/cookies';
import { currentTeam, mayWriteIn, space } from '../state/space';
import { toast } from '../state/toasts';
import { ShortFields, useShortForm } from './ShortFields';
import { useStartPageDomains } from './useStartPageDomains';
import { useT } from '../i18n/context';

/**
 * The start page's 'Link kürzen': the short's fields (ShortFields, mode create) and the create
 * call. It calls `api` directly: react-query is not loaded on the start page (the budget).
 * Logged in, the domain field offers the usable own domains (first choice: the last one used,
 * remembered like the theme). The new short's info page opens (on an own domain: with ?domain=).
 */
export function CreateForm() {
  const { msg, t } = useT();
  const a = useSnapshot(auth);
  // Logged in and working in a team he may write to: the short is the team's (CONTRACT "Teams").
  const sp = useSnapshot(space);
  const team = currentTeam(sp);
  const inTeam = a.status === 'authenticated' && team !== null && mayWriteIn(team);
  const loggedIn = a.status === 'authenticated';
  const [, navigate] = useLocation();
  const form = useShortForm(emptyValues);
  const [busy, setBusy] = useState(false);
  // A refusal shows at the fields it names (the rules: at the rule), besides the toast.
  const [errors, setErrors] = useState<ShortFieldErrors>({});
  const [rulesAt, setRulesAt] = useState<RulesProblemAt>();
  // 'Erweitert' (logged in): folded until opened; remembered like the theme (lib/advanced.ts).
  const [advancedOpen, setAdvancedOpen] = useState(readAdvancedOpen);
  const toggleAdvanced = (open: boolean) => {
    setAdvancedOpen(open);
    rememberAdvancedOpen(open, cookies.consent.services.design);
  };
  const domains = useStartPageDomains(loggedIn);
  const { change } = form;

  // Once the domains are known, the last choice is the first (unless one was picked already).
  const picked = useRef(false);
  useEffect(() => {
    if (!picked.current && domains.length > 0) {
      change({ domain: initialDomain(domains, readLastDomain()) });
    }
  }, [domains, change]);
  const onChange: typeof change = (c) => {
    if ('domain' in c) picked.current = true;
    // A field changed again: its server error no longer applies.
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(c)) delete next[k as keyof ShortFieldErrors];
      return next;
    });
    change(c);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    // An expiry that is not understood is sent as none (SPEC: 'unparsable becomes null').
    const body = createBody(form.values, form.expireAt, loggedIn);
    const domain = loggedIn ? form.values.domain : '';
    try {
      if (inTeam) Object.assign(body, { team: team.id });
      const { code } = await unwrap(api.POST('/api/code', { body }));
      if (domains.length > 0) rememberDomain(domain, cookies.consent.services.design);
      // The info page's banner says it was created (once: no toast besides) and shows shortUrl;
      // a short on an own domain is named by ?domain= (this page is on the main host).
      const on = domain ? `&domain=${encodeURIComponent(domain)}` : '';
      navigate(`/s/${encodeURIComponent(code)}/info?show_created=true${on}`);
    } catch (err) {
      const fields = shortFieldErrors(err);
      setErrors(fields);
      setRulesAt(rulesProblemAt(err));
      // An error in the folded group opens it (for now: not remembered).
      if (Object.keys(fields).some((f) => isAdvanced(f as keyof ShortFieldErrors))) {
        setAdvancedOpen(true);
      }
      toast.error(errorText(err, msg.create.errorOther));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="mb-4 shadow-sm">
      <Card.Body>
        <h2 className="h4">{msg.create.title}</h2>
        <Form onSubmit={(e) => void submit(e)}>
          <ShortFields
            mode="create"
            loggedIn={loggedIn}
            values={form.values}
            onChange={onChange}
            expireAt={form.expireAt}
            domains={domains}
            errors={errors}
            rulesProblemAt={errors.rules === undefined ? undefined : rulesAt}
            advanced={loggedIn ? { open: advancedOpen, onToggle: toggleAdvanced } : undefined}
          />
          {inTeam && (
            <p className="small text-body-secondary" data-testid="create-team">
              {t(msg.space.inTeam, { name: team.name })}
            </p>
          )}
          <Button type="submit" disabled={busy}>
            {msg.create.submit}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}
