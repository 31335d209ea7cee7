// The bare node:http server that cold starts are compared with: started the same way as
// ours (`node <file>`), answering /api/ping as soon as it listens.
require('node:http')
  .createServer((req, res) => res.end('Pong'))
  .listen(Number(process.env.PORT), process.env.HOST);
