/** example_single_tool_call: the smallest tool environment — a `get_weather` tool and a constant reward of 1.0. */
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";

export default defineResourcesServer({
  name: "example_single_tool_call",
  className: "SimpleWeatherResourcesServer",
  verify: { handler: () => ({ reward: 1 }) },
  tools: {
    get_weather: {
      request: { fields: { city: py.str() } },
      handler: ({ city }) => ({ city, weather_description: `The weather in ${city} is cold.` }),
    },
  },
});
