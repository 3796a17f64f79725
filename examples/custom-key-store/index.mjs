// A host app with its own users, key store and billing, mounting the gateway under /ai.
// Run: node examples/custom-key-store/index.mjs   (PORT defaults to 8081)
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import express from 'express';
import { createGateway } from 'rosetta-gateway';

// The host's own "database": users with hashed API keys, a plan, and a credit balance.
const sha256 = (text) => createHash('sha256').update(text).digest();
const users = new Map([
  ['alice', { keyHash: sha256('alice-secret-key'), plan: 'pro', credits: 50_000, held: 0 }],
  ['bob', { keyHash: sha256('bob-secret-key'), plan: 'free', credits: 0, held: 0 }],
]);
const usersByKeyHash = new Map([...users].map(([name, user]) => [user.keyHash.toString('hex'), name]));

/** KeyStore: authenticate(key) → principal or undefined; secrets compared in constant time. */
const keyStore = {
  async authenticate(key) {
    const hash = sha256(key);
    const name = usersByKeyHash.get(hash.toString('hex'));
    if (!name || !timingSafeEqual(users.get(name).keyHash, hash)) return undefined;
    const plan = users.get(name).plan;
    return { id: name, allowedModels: plan === 'pro' ? undefined : ['rosetta-echo'], metadata: { plan } };
  },
};

/** QuotaStore: hold credits before the call, charge actual use after, release on failure. */
const reservations = new Map();
const quotaStore = {
  reserve(userId, amount, { minimum }) {
    const user = users.get(userId);
    const available = user.credits - user.held;
    const hold = Math.min(amount, available);
    if (hold < minimum || hold <= 0) return { ok: false, reason: 'insufficient_balance', available };
    user.held += hold;
    const reservation = { id: randomUUID(), keyId: userId, amount: hold };
    reservations.set(reservation.id, reservation);
    return { ok: true, reservation };
  },
  settle(reservation, actual) {
    if (!reservations.delete(reservation.id)) return;
    const user = users.get(reservation.keyId);
    user.held -= reservation.amount;
    user.credits -= actual;
  },
  release(reservation) {
    if (!reservations.delete(reservation.id)) return;
    users.get(reservation.keyId).held -= reservation.amount;
  },
};

const app = express();
app.get('/admin/credits/:user', (request, response) => {
  const user = users.get(request.params.user);
  if (!user) return response.status(404).json({ error: 'no such user' });
  response.json({ user: request.params.user, credits: user.credits, held: user.held });
});
app.use('/ai', createGateway({ keyStore, quotaStore }));

const server = app.listen(Number(process.env.PORT ?? 8081), () => {
  const base = `http://localhost:${server.address().port}`;
  console.log(`custom-key-store example on ${base}; the gateway is under ${base}/ai`);
  console.log(
    `  curl ${base}/ai/v1/chat/completions -H "Authorization: Bearer alice-secret-key" -H "Content-Type: application/json" -d '{"model":"rosetta-echo","messages":[{"role":"user","content":"hi"}]}'`,
  );
  console.log(`  curl ${base}/admin/credits/alice`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
