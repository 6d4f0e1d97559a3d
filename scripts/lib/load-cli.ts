// Child process of `measureApart` and `offerApart`: runs one load measurement (closed loop, or open
// loop at a fixed rate when given `offer`) and prints its result as JSON.
import { measure, offer } from './load';

const input = JSON.parse(process.argv[2] ?? '{}');
if (input.offer) console.log(JSON.stringify(await offer(...(input.offer as Parameters<typeof offer>))));
else {
  const { label, url, connections, seconds, headers, requests, paced } = input;
  console.log(JSON.stringify(await measure(label, url, connections, seconds, headers, requests, paced)));
}
