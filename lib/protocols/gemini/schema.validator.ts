// Generated from lib/protocols/gemini/schema.ts (generateContentBodySchema) by scripts/generate-validators.cjs. Do not edit:
// change the schema, then run `node scripts/generate-validators.cjs`.
// @ts-nocheck (ajv writes untyped JavaScript; the export below carries the type)
import type { GeneratedValidator } from '../shared/validate';
import { ucs2length as func2 } from '../shared/validator-runtime';

export const validate: GeneratedValidator = validate21;
const schema6 = {"type":"object","required":["contents"],"$defs":{"blob":{"type":"object","properties":{"mimeType":{"type":"string"},"mime_type":{"type":"string"},"data":{"type":"string"},"displayName":{"type":"string"},"display_name":{"type":"string"}}},"innerPart":{"type":"object","properties":{"inlineData":{"$ref":"#/$defs/blob"},"inline_data":{"$ref":"#/$defs/blob"}}},"functionResponse":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"response":{"type":["object","null"]},"id":{"type":"string"},"parts":{"type":"array","items":{"$ref":"#/$defs/innerPart"}}}},"part":{"type":"object","properties":{"text":{"type":"string"},"thought":{"type":["boolean","null"]},"thoughtSignature":{"type":"string"},"thought_signature":{"type":"string"},"inlineData":{"$ref":"#/$defs/blob"},"inline_data":{"$ref":"#/$defs/blob"},"fileData":{"type":"object","properties":{"fileUri":{"type":"string"},"file_uri":{"type":"string"},"mimeType":{"type":"string"},"mime_type":{"type":"string"},"displayName":{"type":"string"},"display_name":{"type":"string"}}},"file_data":{"type":"object","properties":{"fileUri":{"type":"string"},"file_uri":{"type":"string"},"mimeType":{"type":"string"},"mime_type":{"type":"string"},"displayName":{"type":"string"},"display_name":{"type":"string"}}},"functionCall":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"args":{"type":["object","null"]},"id":{"type":"string"}}},"function_call":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"args":{"type":["object","null"]},"id":{"type":"string"}}},"functionResponse":{"$ref":"#/$defs/functionResponse"},"function_response":{"$ref":"#/$defs/functionResponse"}}},"content":{"type":"object","required":["parts"],"properties":{"role":{"enum":["user","model"]},"parts":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/part"}}}},"generationConfig":{"type":["object","null"],"properties":{"temperature":{"type":["number","null"],"minimum":0,"maximum":2},"topP":{"type":["number","null"],"minimum":0,"maximum":1},"top_p":{"type":["number","null"],"minimum":0,"maximum":1},"topK":{"type":["integer","null"],"minimum":1},"top_k":{"type":["integer","null"],"minimum":1},"maxOutputTokens":{"type":["integer","null"],"minimum":1},"max_output_tokens":{"type":["integer","null"],"minimum":1},"stopSequences":{"type":["array","null"],"items":{"type":"string"},"maxItems":5},"stop_sequences":{"type":["array","null"],"items":{"type":"string"},"maxItems":5},"candidateCount":{"type":["integer","null"],"minimum":1,"maximum":8},"candidate_count":{"type":["integer","null"],"minimum":1,"maximum":8},"seed":{"type":["integer","null"]},"responseMimeType":{"type":["string","null"]},"response_mime_type":{"type":["string","null"]},"responseSchema":{"type":["object","null"]},"response_schema":{"type":["object","null"]},"responseJsonSchema":{"type":["object","null"]},"response_json_schema":{"type":["object","null"]},"thinkingConfig":{"type":["object","null"],"properties":{"thinkingBudget":{"type":["integer","null"],"minimum":-1},"thinking_budget":{"type":["integer","null"],"minimum":-1},"includeThoughts":{"type":["boolean","null"]},"include_thoughts":{"type":["boolean","null"]},"thinkingLevel":{"type":["string","null"]},"thinking_level":{"type":["string","null"]}}},"thinking_config":{"type":["object","null"],"properties":{"thinkingBudget":{"type":["integer","null"],"minimum":-1},"thinking_budget":{"type":["integer","null"],"minimum":-1},"includeThoughts":{"type":["boolean","null"]},"include_thoughts":{"type":["boolean","null"]},"thinkingLevel":{"type":["string","null"]},"thinking_level":{"type":["string","null"]}}}}},"toolConfig":{"type":["object","null"],"properties":{"functionCallingConfig":{"type":["object","null"],"properties":{"mode":{"enum":["MODE_UNSPECIFIED","AUTO","ANY","NONE","VALIDATED",null]},"allowedFunctionNames":{"type":["array","null"],"items":{"type":"string"}},"allowed_function_names":{"type":["array","null"],"items":{"type":"string"}}}},"function_calling_config":{"type":["object","null"],"properties":{"mode":{"enum":["MODE_UNSPECIFIED","AUTO","ANY","NONE","VALIDATED",null]},"allowedFunctionNames":{"type":["array","null"],"items":{"type":"string"}},"allowed_function_names":{"type":["array","null"],"items":{"type":"string"}}}}}}},"properties":{"contents":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/content"}},"systemInstruction":{"type":["object","null"],"required":["parts"],"properties":{"parts":{"type":"array","items":{"$ref":"#/$defs/part"}}}},"system_instruction":{"type":["object","null"],"required":["parts"],"properties":{"parts":{"type":"array","items":{"$ref":"#/$defs/part"}}}},"tools":{"type":["array","null"],"items":{"type":"object","properties":{"functionDeclarations":{"type":"array","items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"description":{"type":"string"},"parameters":{"type":"object"},"parametersJsonSchema":{"type":"object"},"parameters_json_schema":{"type":"object"}}}},"function_declarations":{"type":"array","items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"description":{"type":"string"},"parameters":{"type":"object"},"parametersJsonSchema":{"type":"object"},"parameters_json_schema":{"type":"object"}}}}}}},"toolConfig":{"$ref":"#/$defs/toolConfig"},"tool_config":{"$ref":"#/$defs/toolConfig"},"generationConfig":{"$ref":"#/$defs/generationConfig"},"generation_config":{"$ref":"#/$defs/generationConfig"},"safetySettings":{"type":["array","null"]},"safety_settings":{"type":["array","null"]},"cachedContent":{"type":["string","null"]},"cached_content":{"type":["string","null"]}}};
const schema7 = {"type":"object","required":["parts"],"properties":{"role":{"enum":["user","model"]},"parts":{"type":"array","minItems":1,"items":{"$ref":"#/$defs/part"}}}};
const schema8 = {"type":"object","properties":{"text":{"type":"string"},"thought":{"type":["boolean","null"]},"thoughtSignature":{"type":"string"},"thought_signature":{"type":"string"},"inlineData":{"$ref":"#/$defs/blob"},"inline_data":{"$ref":"#/$defs/blob"},"fileData":{"type":"object","properties":{"fileUri":{"type":"string"},"file_uri":{"type":"string"},"mimeType":{"type":"string"},"mime_type":{"type":"string"},"displayName":{"type":"string"},"display_name":{"type":"string"}}},"file_data":{"type":"object","properties":{"fileUri":{"type":"string"},"file_uri":{"type":"string"},"mimeType":{"type":"string"},"mime_type":{"type":"string"},"displayName":{"type":"string"},"display_name":{"type":"string"}}},"functionCall":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"args":{"type":["object","null"]},"id":{"type":"string"}}},"function_call":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"args":{"type":["object","null"]},"id":{"type":"string"}}},"functionResponse":{"$ref":"#/$defs/functionResponse"},"function_response":{"$ref":"#/$defs/functionResponse"}}};
const schema9 = {"type":"object","properties":{"mimeType":{"type":"string"},"mime_type":{"type":"string"},"data":{"type":"string"},"displayName":{"type":"string"},"display_name":{"type":"string"}}};

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.mimeType !== undefined){
const _errs1 = errors;
if(typeof data.mimeType !== "string"){
validate24.errors = [{instancePath:instancePath+"/mimeType",schemaPath:"#/properties/mimeType/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.mime_type !== undefined){
const _errs3 = errors;
if(typeof data.mime_type !== "string"){
validate24.errors = [{instancePath:instancePath+"/mime_type",schemaPath:"#/properties/mime_type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.data !== undefined){
const _errs5 = errors;
if(typeof data.data !== "string"){
validate24.errors = [{instancePath:instancePath+"/data",schemaPath:"#/properties/data/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs5 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.displayName !== undefined){
const _errs7 = errors;
if(typeof data.displayName !== "string"){
validate24.errors = [{instancePath:instancePath+"/displayName",schemaPath:"#/properties/displayName/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.display_name !== undefined){
const _errs9 = errors;
if(typeof data.display_name !== "string"){
validate24.errors = [{instancePath:instancePath+"/display_name",schemaPath:"#/properties/display_name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs9 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
else {
validate24.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate24.errors = vErrors;
return errors === 0;
}

const schema10 = {"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"response":{"type":["object","null"]},"id":{"type":"string"},"parts":{"type":"array","items":{"$ref":"#/$defs/innerPart"}}}};
const schema11 = {"type":"object","properties":{"inlineData":{"$ref":"#/$defs/blob"},"inline_data":{"$ref":"#/$defs/blob"}}};

function validate28(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.inlineData !== undefined){
const _errs1 = errors;
if(!(validate24(data.inlineData, {instancePath:instancePath+"/inlineData",parentData:data,parentDataProperty:"inlineData",rootData}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.inline_data !== undefined){
const _errs2 = errors;
if(!(validate24(data.inline_data, {instancePath:instancePath+"/inline_data",parentData:data,parentDataProperty:"inline_data",rootData}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
}
}
else {
validate28.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate28.errors = vErrors;
return errors === 0;
}


function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.name === undefined) && (missing0 = "name")){
validate27.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.name !== undefined){
let data0 = data.name;
const _errs1 = errors;
if(errors === _errs1){
if(typeof data0 === "string"){
if(func2(data0) < 1){
validate27.errors = [{instancePath:instancePath+"/name",schemaPath:"#/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate27.errors = [{instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response !== undefined){
let data1 = data.response;
const _errs3 = errors;
if((!(data1 && typeof data1 == "object" && !Array.isArray(data1))) && (data1 !== null)){
validate27.errors = [{instancePath:instancePath+"/response",schemaPath:"#/properties/response/type",keyword:"type",params:{type: schema10.properties.response.type},message:"must be object,null"}];
return false;
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.id !== undefined){
const _errs5 = errors;
if(typeof data.id !== "string"){
validate27.errors = [{instancePath:instancePath+"/id",schemaPath:"#/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs5 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.parts !== undefined){
let data3 = data.parts;
const _errs7 = errors;
if(errors === _errs7){
if(Array.isArray(data3)){
var valid1 = true;
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
const _errs9 = errors;
if(!(validate28(data3[i0], {instancePath:instancePath+"/parts/" + i0,parentData:data3,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? validate28.errors : vErrors.concat(validate28.errors);
errors = vErrors.length;
}
var valid1 = _errs9 === errors;
if(!valid1){
break;
}
}
}
else {
validate27.errors = [{instancePath:instancePath+"/parts",schemaPath:"#/properties/parts/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
else {
validate27.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate27.errors = vErrors;
return errors === 0;
}


function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.text !== undefined){
const _errs1 = errors;
if(typeof data.text !== "string"){
validate23.errors = [{instancePath:instancePath+"/text",schemaPath:"#/properties/text/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.thought !== undefined){
let data1 = data.thought;
const _errs3 = errors;
if((typeof data1 !== "boolean") && (data1 !== null)){
validate23.errors = [{instancePath:instancePath+"/thought",schemaPath:"#/properties/thought/type",keyword:"type",params:{type: schema8.properties.thought.type},message:"must be boolean,null"}];
return false;
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.thoughtSignature !== undefined){
const _errs5 = errors;
if(typeof data.thoughtSignature !== "string"){
validate23.errors = [{instancePath:instancePath+"/thoughtSignature",schemaPath:"#/properties/thoughtSignature/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs5 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.thought_signature !== undefined){
const _errs7 = errors;
if(typeof data.thought_signature !== "string"){
validate23.errors = [{instancePath:instancePath+"/thought_signature",schemaPath:"#/properties/thought_signature/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.inlineData !== undefined){
const _errs9 = errors;
if(!(validate24(data.inlineData, {instancePath:instancePath+"/inlineData",parentData:data,parentDataProperty:"inlineData",rootData}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
var valid0 = _errs9 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.inline_data !== undefined){
const _errs10 = errors;
if(!(validate24(data.inline_data, {instancePath:instancePath+"/inline_data",parentData:data,parentDataProperty:"inline_data",rootData}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
var valid0 = _errs10 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.fileData !== undefined){
let data6 = data.fileData;
const _errs11 = errors;
if(errors === _errs11){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.fileUri !== undefined){
const _errs13 = errors;
if(typeof data6.fileUri !== "string"){
validate23.errors = [{instancePath:instancePath+"/fileData/fileUri",schemaPath:"#/properties/fileData/properties/fileUri/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs13 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data6.file_uri !== undefined){
const _errs15 = errors;
if(typeof data6.file_uri !== "string"){
validate23.errors = [{instancePath:instancePath+"/fileData/file_uri",schemaPath:"#/properties/fileData/properties/file_uri/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs15 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data6.mimeType !== undefined){
const _errs17 = errors;
if(typeof data6.mimeType !== "string"){
validate23.errors = [{instancePath:instancePath+"/fileData/mimeType",schemaPath:"#/properties/fileData/properties/mimeType/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs17 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data6.mime_type !== undefined){
const _errs19 = errors;
if(typeof data6.mime_type !== "string"){
validate23.errors = [{instancePath:instancePath+"/fileData/mime_type",schemaPath:"#/properties/fileData/properties/mime_type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs19 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data6.displayName !== undefined){
const _errs21 = errors;
if(typeof data6.displayName !== "string"){
validate23.errors = [{instancePath:instancePath+"/fileData/displayName",schemaPath:"#/properties/fileData/properties/displayName/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs21 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data6.display_name !== undefined){
const _errs23 = errors;
if(typeof data6.display_name !== "string"){
validate23.errors = [{instancePath:instancePath+"/fileData/display_name",schemaPath:"#/properties/fileData/properties/display_name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs23 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
}
}
else {
validate23.errors = [{instancePath:instancePath+"/fileData",schemaPath:"#/properties/fileData/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs11 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.file_data !== undefined){
let data13 = data.file_data;
const _errs25 = errors;
if(errors === _errs25){
if(data13 && typeof data13 == "object" && !Array.isArray(data13)){
if(data13.fileUri !== undefined){
const _errs27 = errors;
if(typeof data13.fileUri !== "string"){
validate23.errors = [{instancePath:instancePath+"/file_data/fileUri",schemaPath:"#/properties/file_data/properties/fileUri/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs27 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data13.file_uri !== undefined){
const _errs29 = errors;
if(typeof data13.file_uri !== "string"){
validate23.errors = [{instancePath:instancePath+"/file_data/file_uri",schemaPath:"#/properties/file_data/properties/file_uri/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs29 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data13.mimeType !== undefined){
const _errs31 = errors;
if(typeof data13.mimeType !== "string"){
validate23.errors = [{instancePath:instancePath+"/file_data/mimeType",schemaPath:"#/properties/file_data/properties/mimeType/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs31 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data13.mime_type !== undefined){
const _errs33 = errors;
if(typeof data13.mime_type !== "string"){
validate23.errors = [{instancePath:instancePath+"/file_data/mime_type",schemaPath:"#/properties/file_data/properties/mime_type/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs33 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data13.displayName !== undefined){
const _errs35 = errors;
if(typeof data13.displayName !== "string"){
validate23.errors = [{instancePath:instancePath+"/file_data/displayName",schemaPath:"#/properties/file_data/properties/displayName/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs35 === errors;
}
else {
var valid2 = true;
}
if(valid2){
if(data13.display_name !== undefined){
const _errs37 = errors;
if(typeof data13.display_name !== "string"){
validate23.errors = [{instancePath:instancePath+"/file_data/display_name",schemaPath:"#/properties/file_data/properties/display_name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs37 === errors;
}
else {
var valid2 = true;
}
}
}
}
}
}
}
else {
validate23.errors = [{instancePath:instancePath+"/file_data",schemaPath:"#/properties/file_data/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs25 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.functionCall !== undefined){
let data20 = data.functionCall;
const _errs39 = errors;
if(errors === _errs39){
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
let missing0;
if((data20.name === undefined) && (missing0 = "name")){
validate23.errors = [{instancePath:instancePath+"/functionCall",schemaPath:"#/properties/functionCall/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data20.name !== undefined){
let data21 = data20.name;
const _errs41 = errors;
if(errors === _errs41){
if(typeof data21 === "string"){
if(func2(data21) < 1){
validate23.errors = [{instancePath:instancePath+"/functionCall/name",schemaPath:"#/properties/functionCall/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate23.errors = [{instancePath:instancePath+"/functionCall/name",schemaPath:"#/properties/functionCall/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs41 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.args !== undefined){
let data22 = data20.args;
const _errs43 = errors;
if((!(data22 && typeof data22 == "object" && !Array.isArray(data22))) && (data22 !== null)){
validate23.errors = [{instancePath:instancePath+"/functionCall/args",schemaPath:"#/properties/functionCall/properties/args/type",keyword:"type",params:{type: schema8.properties.functionCall.properties.args.type},message:"must be object,null"}];
return false;
}
var valid3 = _errs43 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.id !== undefined){
const _errs45 = errors;
if(typeof data20.id !== "string"){
validate23.errors = [{instancePath:instancePath+"/functionCall/id",schemaPath:"#/properties/functionCall/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs45 === errors;
}
else {
var valid3 = true;
}
}
}
}
}
else {
validate23.errors = [{instancePath:instancePath+"/functionCall",schemaPath:"#/properties/functionCall/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs39 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.function_call !== undefined){
let data24 = data.function_call;
const _errs47 = errors;
if(errors === _errs47){
if(data24 && typeof data24 == "object" && !Array.isArray(data24)){
let missing1;
if((data24.name === undefined) && (missing1 = "name")){
validate23.errors = [{instancePath:instancePath+"/function_call",schemaPath:"#/properties/function_call/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data24.name !== undefined){
let data25 = data24.name;
const _errs49 = errors;
if(errors === _errs49){
if(typeof data25 === "string"){
if(func2(data25) < 1){
validate23.errors = [{instancePath:instancePath+"/function_call/name",schemaPath:"#/properties/function_call/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate23.errors = [{instancePath:instancePath+"/function_call/name",schemaPath:"#/properties/function_call/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid4 = _errs49 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data24.args !== undefined){
let data26 = data24.args;
const _errs51 = errors;
if((!(data26 && typeof data26 == "object" && !Array.isArray(data26))) && (data26 !== null)){
validate23.errors = [{instancePath:instancePath+"/function_call/args",schemaPath:"#/properties/function_call/properties/args/type",keyword:"type",params:{type: schema8.properties.function_call.properties.args.type},message:"must be object,null"}];
return false;
}
var valid4 = _errs51 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data24.id !== undefined){
const _errs53 = errors;
if(typeof data24.id !== "string"){
validate23.errors = [{instancePath:instancePath+"/function_call/id",schemaPath:"#/properties/function_call/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid4 = _errs53 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
else {
validate23.errors = [{instancePath:instancePath+"/function_call",schemaPath:"#/properties/function_call/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs47 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.functionResponse !== undefined){
const _errs55 = errors;
if(!(validate27(data.functionResponse, {instancePath:instancePath+"/functionResponse",parentData:data,parentDataProperty:"functionResponse",rootData}))){
vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
errors = vErrors.length;
}
var valid0 = _errs55 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.function_response !== undefined){
const _errs56 = errors;
if(!(validate27(data.function_response, {instancePath:instancePath+"/function_response",parentData:data,parentDataProperty:"function_response",rootData}))){
vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
errors = vErrors.length;
}
var valid0 = _errs56 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate23.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate23.errors = vErrors;
return errors === 0;
}


function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.parts === undefined) && (missing0 = "parts")){
validate22.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.role !== undefined){
let data0 = data.role;
const _errs1 = errors;
if(!((data0 === "user") || (data0 === "model"))){
validate22.errors = [{instancePath:instancePath+"/role",schemaPath:"#/properties/role/enum",keyword:"enum",params:{allowedValues: schema7.properties.role.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.parts !== undefined){
let data1 = data.parts;
const _errs2 = errors;
if(errors === _errs2){
if(Array.isArray(data1)){
if(data1.length < 1){
validate22.errors = [{instancePath:instancePath+"/parts",schemaPath:"#/properties/parts/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"}];
return false;
}
else {
var valid1 = true;
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
const _errs4 = errors;
if(!(validate23(data1[i0], {instancePath:instancePath+"/parts/" + i0,parentData:data1,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
var valid1 = _errs4 === errors;
if(!valid1){
break;
}
}
}
}
else {
validate22.errors = [{instancePath:instancePath+"/parts",schemaPath:"#/properties/parts/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
}
}
}
else {
validate22.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate22.errors = vErrors;
return errors === 0;
}

const schema12 = {"type":["object","null"],"properties":{"functionCallingConfig":{"type":["object","null"],"properties":{"mode":{"enum":["MODE_UNSPECIFIED","AUTO","ANY","NONE","VALIDATED",null]},"allowedFunctionNames":{"type":["array","null"],"items":{"type":"string"}},"allowed_function_names":{"type":["array","null"],"items":{"type":"string"}}}},"function_calling_config":{"type":["object","null"],"properties":{"mode":{"enum":["MODE_UNSPECIFIED","AUTO","ANY","NONE","VALIDATED",null]},"allowedFunctionNames":{"type":["array","null"],"items":{"type":"string"}},"allowed_function_names":{"type":["array","null"],"items":{"type":"string"}}}}}};

function validate38(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if((!(data && typeof data == "object" && !Array.isArray(data))) && (data !== null)){
validate38.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: schema12.type},message:"must be object,null"}];
return false;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.functionCallingConfig !== undefined){
let data0 = data.functionCallingConfig;
const _errs1 = errors;
if((!(data0 && typeof data0 == "object" && !Array.isArray(data0))) && (data0 !== null)){
validate38.errors = [{instancePath:instancePath+"/functionCallingConfig",schemaPath:"#/properties/functionCallingConfig/type",keyword:"type",params:{type: schema12.properties.functionCallingConfig.type},message:"must be object,null"}];
return false;
}
if(errors === _errs1){
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.mode !== undefined){
let data1 = data0.mode;
const _errs3 = errors;
if(!((((((data1 === "MODE_UNSPECIFIED") || (data1 === "AUTO")) || (data1 === "ANY")) || (data1 === "NONE")) || (data1 === "VALIDATED")) || (data1 === null))){
validate38.errors = [{instancePath:instancePath+"/functionCallingConfig/mode",schemaPath:"#/properties/functionCallingConfig/properties/mode/enum",keyword:"enum",params:{allowedValues: schema12.properties.functionCallingConfig.properties.mode.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid1 = _errs3 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.allowedFunctionNames !== undefined){
let data2 = data0.allowedFunctionNames;
const _errs4 = errors;
if((!(Array.isArray(data2))) && (data2 !== null)){
validate38.errors = [{instancePath:instancePath+"/functionCallingConfig/allowedFunctionNames",schemaPath:"#/properties/functionCallingConfig/properties/allowedFunctionNames/type",keyword:"type",params:{type: schema12.properties.functionCallingConfig.properties.allowedFunctionNames.type},message:"must be array,null"}];
return false;
}
if(errors === _errs4){
if(Array.isArray(data2)){
var valid2 = true;
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
const _errs6 = errors;
if(typeof data2[i0] !== "string"){
validate38.errors = [{instancePath:instancePath+"/functionCallingConfig/allowedFunctionNames/" + i0,schemaPath:"#/properties/functionCallingConfig/properties/allowedFunctionNames/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs6 === errors;
if(!valid2){
break;
}
}
}
}
var valid1 = _errs4 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.allowed_function_names !== undefined){
let data4 = data0.allowed_function_names;
const _errs8 = errors;
if((!(Array.isArray(data4))) && (data4 !== null)){
validate38.errors = [{instancePath:instancePath+"/functionCallingConfig/allowed_function_names",schemaPath:"#/properties/functionCallingConfig/properties/allowed_function_names/type",keyword:"type",params:{type: schema12.properties.functionCallingConfig.properties.allowed_function_names.type},message:"must be array,null"}];
return false;
}
if(errors === _errs8){
if(Array.isArray(data4)){
var valid3 = true;
const len1 = data4.length;
for(let i1=0; i1<len1; i1++){
const _errs10 = errors;
if(typeof data4[i1] !== "string"){
validate38.errors = [{instancePath:instancePath+"/functionCallingConfig/allowed_function_names/" + i1,schemaPath:"#/properties/functionCallingConfig/properties/allowed_function_names/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs10 === errors;
if(!valid3){
break;
}
}
}
}
var valid1 = _errs8 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.function_calling_config !== undefined){
let data6 = data.function_calling_config;
const _errs12 = errors;
if((!(data6 && typeof data6 == "object" && !Array.isArray(data6))) && (data6 !== null)){
validate38.errors = [{instancePath:instancePath+"/function_calling_config",schemaPath:"#/properties/function_calling_config/type",keyword:"type",params:{type: schema12.properties.function_calling_config.type},message:"must be object,null"}];
return false;
}
if(errors === _errs12){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.mode !== undefined){
let data7 = data6.mode;
const _errs14 = errors;
if(!((((((data7 === "MODE_UNSPECIFIED") || (data7 === "AUTO")) || (data7 === "ANY")) || (data7 === "NONE")) || (data7 === "VALIDATED")) || (data7 === null))){
validate38.errors = [{instancePath:instancePath+"/function_calling_config/mode",schemaPath:"#/properties/function_calling_config/properties/mode/enum",keyword:"enum",params:{allowedValues: schema12.properties.function_calling_config.properties.mode.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid4 = _errs14 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data6.allowedFunctionNames !== undefined){
let data8 = data6.allowedFunctionNames;
const _errs15 = errors;
if((!(Array.isArray(data8))) && (data8 !== null)){
validate38.errors = [{instancePath:instancePath+"/function_calling_config/allowedFunctionNames",schemaPath:"#/properties/function_calling_config/properties/allowedFunctionNames/type",keyword:"type",params:{type: schema12.properties.function_calling_config.properties.allowedFunctionNames.type},message:"must be array,null"}];
return false;
}
if(errors === _errs15){
if(Array.isArray(data8)){
var valid5 = true;
const len2 = data8.length;
for(let i2=0; i2<len2; i2++){
const _errs17 = errors;
if(typeof data8[i2] !== "string"){
validate38.errors = [{instancePath:instancePath+"/function_calling_config/allowedFunctionNames/" + i2,schemaPath:"#/properties/function_calling_config/properties/allowedFunctionNames/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid5 = _errs17 === errors;
if(!valid5){
break;
}
}
}
}
var valid4 = _errs15 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data6.allowed_function_names !== undefined){
let data10 = data6.allowed_function_names;
const _errs19 = errors;
if((!(Array.isArray(data10))) && (data10 !== null)){
validate38.errors = [{instancePath:instancePath+"/function_calling_config/allowed_function_names",schemaPath:"#/properties/function_calling_config/properties/allowed_function_names/type",keyword:"type",params:{type: schema12.properties.function_calling_config.properties.allowed_function_names.type},message:"must be array,null"}];
return false;
}
if(errors === _errs19){
if(Array.isArray(data10)){
var valid6 = true;
const len3 = data10.length;
for(let i3=0; i3<len3; i3++){
const _errs21 = errors;
if(typeof data10[i3] !== "string"){
validate38.errors = [{instancePath:instancePath+"/function_calling_config/allowed_function_names/" + i3,schemaPath:"#/properties/function_calling_config/properties/allowed_function_names/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid6 = _errs21 === errors;
if(!valid6){
break;
}
}
}
}
var valid4 = _errs19 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
}
}
}
validate38.errors = vErrors;
return errors === 0;
}

const schema13 = {"type":["object","null"],"properties":{"temperature":{"type":["number","null"],"minimum":0,"maximum":2},"topP":{"type":["number","null"],"minimum":0,"maximum":1},"top_p":{"type":["number","null"],"minimum":0,"maximum":1},"topK":{"type":["integer","null"],"minimum":1},"top_k":{"type":["integer","null"],"minimum":1},"maxOutputTokens":{"type":["integer","null"],"minimum":1},"max_output_tokens":{"type":["integer","null"],"minimum":1},"stopSequences":{"type":["array","null"],"items":{"type":"string"},"maxItems":5},"stop_sequences":{"type":["array","null"],"items":{"type":"string"},"maxItems":5},"candidateCount":{"type":["integer","null"],"minimum":1,"maximum":8},"candidate_count":{"type":["integer","null"],"minimum":1,"maximum":8},"seed":{"type":["integer","null"]},"responseMimeType":{"type":["string","null"]},"response_mime_type":{"type":["string","null"]},"responseSchema":{"type":["object","null"]},"response_schema":{"type":["object","null"]},"responseJsonSchema":{"type":["object","null"]},"response_json_schema":{"type":["object","null"]},"thinkingConfig":{"type":["object","null"],"properties":{"thinkingBudget":{"type":["integer","null"],"minimum":-1},"thinking_budget":{"type":["integer","null"],"minimum":-1},"includeThoughts":{"type":["boolean","null"]},"include_thoughts":{"type":["boolean","null"]},"thinkingLevel":{"type":["string","null"]},"thinking_level":{"type":["string","null"]}}},"thinking_config":{"type":["object","null"],"properties":{"thinkingBudget":{"type":["integer","null"],"minimum":-1},"thinking_budget":{"type":["integer","null"],"minimum":-1},"includeThoughts":{"type":["boolean","null"]},"include_thoughts":{"type":["boolean","null"]},"thinkingLevel":{"type":["string","null"]},"thinking_level":{"type":["string","null"]}}}}};

function validate41(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if((!(data && typeof data == "object" && !Array.isArray(data))) && (data !== null)){
validate41.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: schema13.type},message:"must be object,null"}];
return false;
}
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.temperature !== undefined){
let data0 = data.temperature;
const _errs1 = errors;
if((!(typeof data0 == "number")) && (data0 !== null)){
validate41.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/type",keyword:"type",params:{type: schema13.properties.temperature.type},message:"must be number,null"}];
return false;
}
if(errors === _errs1){
if(typeof data0 == "number"){
if(data0 > 2 || isNaN(data0)){
validate41.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/maximum",keyword:"maximum",params:{comparison: "<=", limit: 2},message:"must be <= 2"}];
return false;
}
else {
if(data0 < 0 || isNaN(data0)){
validate41.errors = [{instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.topP !== undefined){
let data1 = data.topP;
const _errs3 = errors;
if((!(typeof data1 == "number")) && (data1 !== null)){
validate41.errors = [{instancePath:instancePath+"/topP",schemaPath:"#/properties/topP/type",keyword:"type",params:{type: schema13.properties.topP.type},message:"must be number,null"}];
return false;
}
if(errors === _errs3){
if(typeof data1 == "number"){
if(data1 > 1 || isNaN(data1)){
validate41.errors = [{instancePath:instancePath+"/topP",schemaPath:"#/properties/topP/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1"}];
return false;
}
else {
if(data1 < 0 || isNaN(data1)){
validate41.errors = [{instancePath:instancePath+"/topP",schemaPath:"#/properties/topP/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs3 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.top_p !== undefined){
let data2 = data.top_p;
const _errs5 = errors;
if((!(typeof data2 == "number")) && (data2 !== null)){
validate41.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/type",keyword:"type",params:{type: schema13.properties.top_p.type},message:"must be number,null"}];
return false;
}
if(errors === _errs5){
if(typeof data2 == "number"){
if(data2 > 1 || isNaN(data2)){
validate41.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1"}];
return false;
}
else {
if(data2 < 0 || isNaN(data2)){
validate41.errors = [{instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0"}];
return false;
}
}
}
}
var valid0 = _errs5 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.topK !== undefined){
let data3 = data.topK;
const _errs7 = errors;
if((!((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3)))) && (data3 !== null)){
validate41.errors = [{instancePath:instancePath+"/topK",schemaPath:"#/properties/topK/type",keyword:"type",params:{type: schema13.properties.topK.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs7){
if(typeof data3 == "number"){
if(data3 < 1 || isNaN(data3)){
validate41.errors = [{instancePath:instancePath+"/topK",schemaPath:"#/properties/topK/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.top_k !== undefined){
let data4 = data.top_k;
const _errs9 = errors;
if((!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))) && (data4 !== null)){
validate41.errors = [{instancePath:instancePath+"/top_k",schemaPath:"#/properties/top_k/type",keyword:"type",params:{type: schema13.properties.top_k.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs9){
if(typeof data4 == "number"){
if(data4 < 1 || isNaN(data4)){
validate41.errors = [{instancePath:instancePath+"/top_k",schemaPath:"#/properties/top_k/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs9 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.maxOutputTokens !== undefined){
let data5 = data.maxOutputTokens;
const _errs11 = errors;
if((!((typeof data5 == "number") && (!(data5 % 1) && !isNaN(data5)))) && (data5 !== null)){
validate41.errors = [{instancePath:instancePath+"/maxOutputTokens",schemaPath:"#/properties/maxOutputTokens/type",keyword:"type",params:{type: schema13.properties.maxOutputTokens.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs11){
if(typeof data5 == "number"){
if(data5 < 1 || isNaN(data5)){
validate41.errors = [{instancePath:instancePath+"/maxOutputTokens",schemaPath:"#/properties/maxOutputTokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs11 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.max_output_tokens !== undefined){
let data6 = data.max_output_tokens;
const _errs13 = errors;
if((!((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6)))) && (data6 !== null)){
validate41.errors = [{instancePath:instancePath+"/max_output_tokens",schemaPath:"#/properties/max_output_tokens/type",keyword:"type",params:{type: schema13.properties.max_output_tokens.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs13){
if(typeof data6 == "number"){
if(data6 < 1 || isNaN(data6)){
validate41.errors = [{instancePath:instancePath+"/max_output_tokens",schemaPath:"#/properties/max_output_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
var valid0 = _errs13 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stopSequences !== undefined){
let data7 = data.stopSequences;
const _errs15 = errors;
if((!(Array.isArray(data7))) && (data7 !== null)){
validate41.errors = [{instancePath:instancePath+"/stopSequences",schemaPath:"#/properties/stopSequences/type",keyword:"type",params:{type: schema13.properties.stopSequences.type},message:"must be array,null"}];
return false;
}
if(errors === _errs15){
if(Array.isArray(data7)){
if(data7.length > 5){
validate41.errors = [{instancePath:instancePath+"/stopSequences",schemaPath:"#/properties/stopSequences/maxItems",keyword:"maxItems",params:{limit: 5},message:"must NOT have more than 5 items"}];
return false;
}
else {
var valid1 = true;
const len0 = data7.length;
for(let i0=0; i0<len0; i0++){
const _errs17 = errors;
if(typeof data7[i0] !== "string"){
validate41.errors = [{instancePath:instancePath+"/stopSequences/" + i0,schemaPath:"#/properties/stopSequences/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs17 === errors;
if(!valid1){
break;
}
}
}
}
}
var valid0 = _errs15 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.stop_sequences !== undefined){
let data9 = data.stop_sequences;
const _errs19 = errors;
if((!(Array.isArray(data9))) && (data9 !== null)){
validate41.errors = [{instancePath:instancePath+"/stop_sequences",schemaPath:"#/properties/stop_sequences/type",keyword:"type",params:{type: schema13.properties.stop_sequences.type},message:"must be array,null"}];
return false;
}
if(errors === _errs19){
if(Array.isArray(data9)){
if(data9.length > 5){
validate41.errors = [{instancePath:instancePath+"/stop_sequences",schemaPath:"#/properties/stop_sequences/maxItems",keyword:"maxItems",params:{limit: 5},message:"must NOT have more than 5 items"}];
return false;
}
else {
var valid2 = true;
const len1 = data9.length;
for(let i1=0; i1<len1; i1++){
const _errs21 = errors;
if(typeof data9[i1] !== "string"){
validate41.errors = [{instancePath:instancePath+"/stop_sequences/" + i1,schemaPath:"#/properties/stop_sequences/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs21 === errors;
if(!valid2){
break;
}
}
}
}
}
var valid0 = _errs19 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.candidateCount !== undefined){
let data11 = data.candidateCount;
const _errs23 = errors;
if((!((typeof data11 == "number") && (!(data11 % 1) && !isNaN(data11)))) && (data11 !== null)){
validate41.errors = [{instancePath:instancePath+"/candidateCount",schemaPath:"#/properties/candidateCount/type",keyword:"type",params:{type: schema13.properties.candidateCount.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs23){
if(typeof data11 == "number"){
if(data11 > 8 || isNaN(data11)){
validate41.errors = [{instancePath:instancePath+"/candidateCount",schemaPath:"#/properties/candidateCount/maximum",keyword:"maximum",params:{comparison: "<=", limit: 8},message:"must be <= 8"}];
return false;
}
else {
if(data11 < 1 || isNaN(data11)){
validate41.errors = [{instancePath:instancePath+"/candidateCount",schemaPath:"#/properties/candidateCount/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid0 = _errs23 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.candidate_count !== undefined){
let data12 = data.candidate_count;
const _errs25 = errors;
if((!((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12)))) && (data12 !== null)){
validate41.errors = [{instancePath:instancePath+"/candidate_count",schemaPath:"#/properties/candidate_count/type",keyword:"type",params:{type: schema13.properties.candidate_count.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs25){
if(typeof data12 == "number"){
if(data12 > 8 || isNaN(data12)){
validate41.errors = [{instancePath:instancePath+"/candidate_count",schemaPath:"#/properties/candidate_count/maximum",keyword:"maximum",params:{comparison: "<=", limit: 8},message:"must be <= 8"}];
return false;
}
else {
if(data12 < 1 || isNaN(data12)){
validate41.errors = [{instancePath:instancePath+"/candidate_count",schemaPath:"#/properties/candidate_count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"}];
return false;
}
}
}
}
var valid0 = _errs25 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.seed !== undefined){
let data13 = data.seed;
const _errs27 = errors;
if((!((typeof data13 == "number") && (!(data13 % 1) && !isNaN(data13)))) && (data13 !== null)){
validate41.errors = [{instancePath:instancePath+"/seed",schemaPath:"#/properties/seed/type",keyword:"type",params:{type: schema13.properties.seed.type},message:"must be integer,null"}];
return false;
}
var valid0 = _errs27 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.responseMimeType !== undefined){
let data14 = data.responseMimeType;
const _errs29 = errors;
if((typeof data14 !== "string") && (data14 !== null)){
validate41.errors = [{instancePath:instancePath+"/responseMimeType",schemaPath:"#/properties/responseMimeType/type",keyword:"type",params:{type: schema13.properties.responseMimeType.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs29 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response_mime_type !== undefined){
let data15 = data.response_mime_type;
const _errs31 = errors;
if((typeof data15 !== "string") && (data15 !== null)){
validate41.errors = [{instancePath:instancePath+"/response_mime_type",schemaPath:"#/properties/response_mime_type/type",keyword:"type",params:{type: schema13.properties.response_mime_type.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs31 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.responseSchema !== undefined){
let data16 = data.responseSchema;
const _errs33 = errors;
if((!(data16 && typeof data16 == "object" && !Array.isArray(data16))) && (data16 !== null)){
validate41.errors = [{instancePath:instancePath+"/responseSchema",schemaPath:"#/properties/responseSchema/type",keyword:"type",params:{type: schema13.properties.responseSchema.type},message:"must be object,null"}];
return false;
}
var valid0 = _errs33 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response_schema !== undefined){
let data17 = data.response_schema;
const _errs35 = errors;
if((!(data17 && typeof data17 == "object" && !Array.isArray(data17))) && (data17 !== null)){
validate41.errors = [{instancePath:instancePath+"/response_schema",schemaPath:"#/properties/response_schema/type",keyword:"type",params:{type: schema13.properties.response_schema.type},message:"must be object,null"}];
return false;
}
var valid0 = _errs35 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.responseJsonSchema !== undefined){
let data18 = data.responseJsonSchema;
const _errs37 = errors;
if((!(data18 && typeof data18 == "object" && !Array.isArray(data18))) && (data18 !== null)){
validate41.errors = [{instancePath:instancePath+"/responseJsonSchema",schemaPath:"#/properties/responseJsonSchema/type",keyword:"type",params:{type: schema13.properties.responseJsonSchema.type},message:"must be object,null"}];
return false;
}
var valid0 = _errs37 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response_json_schema !== undefined){
let data19 = data.response_json_schema;
const _errs39 = errors;
if((!(data19 && typeof data19 == "object" && !Array.isArray(data19))) && (data19 !== null)){
validate41.errors = [{instancePath:instancePath+"/response_json_schema",schemaPath:"#/properties/response_json_schema/type",keyword:"type",params:{type: schema13.properties.response_json_schema.type},message:"must be object,null"}];
return false;
}
var valid0 = _errs39 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.thinkingConfig !== undefined){
let data20 = data.thinkingConfig;
const _errs41 = errors;
if((!(data20 && typeof data20 == "object" && !Array.isArray(data20))) && (data20 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig",schemaPath:"#/properties/thinkingConfig/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.type},message:"must be object,null"}];
return false;
}
if(errors === _errs41){
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
if(data20.thinkingBudget !== undefined){
let data21 = data20.thinkingBudget;
const _errs43 = errors;
if((!((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21)))) && (data21 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/thinkingBudget",schemaPath:"#/properties/thinkingConfig/properties/thinkingBudget/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.properties.thinkingBudget.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs43){
if(typeof data21 == "number"){
if(data21 < -1 || isNaN(data21)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/thinkingBudget",schemaPath:"#/properties/thinkingConfig/properties/thinkingBudget/minimum",keyword:"minimum",params:{comparison: ">=", limit: -1},message:"must be >= -1"}];
return false;
}
}
}
var valid3 = _errs43 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.thinking_budget !== undefined){
let data22 = data20.thinking_budget;
const _errs45 = errors;
if((!((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22)))) && (data22 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/thinking_budget",schemaPath:"#/properties/thinkingConfig/properties/thinking_budget/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.properties.thinking_budget.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs45){
if(typeof data22 == "number"){
if(data22 < -1 || isNaN(data22)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/thinking_budget",schemaPath:"#/properties/thinkingConfig/properties/thinking_budget/minimum",keyword:"minimum",params:{comparison: ">=", limit: -1},message:"must be >= -1"}];
return false;
}
}
}
var valid3 = _errs45 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.includeThoughts !== undefined){
let data23 = data20.includeThoughts;
const _errs47 = errors;
if((typeof data23 !== "boolean") && (data23 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/includeThoughts",schemaPath:"#/properties/thinkingConfig/properties/includeThoughts/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.properties.includeThoughts.type},message:"must be boolean,null"}];
return false;
}
var valid3 = _errs47 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.include_thoughts !== undefined){
let data24 = data20.include_thoughts;
const _errs49 = errors;
if((typeof data24 !== "boolean") && (data24 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/include_thoughts",schemaPath:"#/properties/thinkingConfig/properties/include_thoughts/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.properties.include_thoughts.type},message:"must be boolean,null"}];
return false;
}
var valid3 = _errs49 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.thinkingLevel !== undefined){
let data25 = data20.thinkingLevel;
const _errs51 = errors;
if((typeof data25 !== "string") && (data25 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/thinkingLevel",schemaPath:"#/properties/thinkingConfig/properties/thinkingLevel/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.properties.thinkingLevel.type},message:"must be string,null"}];
return false;
}
var valid3 = _errs51 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data20.thinking_level !== undefined){
let data26 = data20.thinking_level;
const _errs53 = errors;
if((typeof data26 !== "string") && (data26 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinkingConfig/thinking_level",schemaPath:"#/properties/thinkingConfig/properties/thinking_level/type",keyword:"type",params:{type: schema13.properties.thinkingConfig.properties.thinking_level.type},message:"must be string,null"}];
return false;
}
var valid3 = _errs53 === errors;
}
else {
var valid3 = true;
}
}
}
}
}
}
}
}
var valid0 = _errs41 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.thinking_config !== undefined){
let data27 = data.thinking_config;
const _errs55 = errors;
if((!(data27 && typeof data27 == "object" && !Array.isArray(data27))) && (data27 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config",schemaPath:"#/properties/thinking_config/type",keyword:"type",params:{type: schema13.properties.thinking_config.type},message:"must be object,null"}];
return false;
}
if(errors === _errs55){
if(data27 && typeof data27 == "object" && !Array.isArray(data27)){
if(data27.thinkingBudget !== undefined){
let data28 = data27.thinkingBudget;
const _errs57 = errors;
if((!((typeof data28 == "number") && (!(data28 % 1) && !isNaN(data28)))) && (data28 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/thinkingBudget",schemaPath:"#/properties/thinking_config/properties/thinkingBudget/type",keyword:"type",params:{type: schema13.properties.thinking_config.properties.thinkingBudget.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs57){
if(typeof data28 == "number"){
if(data28 < -1 || isNaN(data28)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/thinkingBudget",schemaPath:"#/properties/thinking_config/properties/thinkingBudget/minimum",keyword:"minimum",params:{comparison: ">=", limit: -1},message:"must be >= -1"}];
return false;
}
}
}
var valid4 = _errs57 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data27.thinking_budget !== undefined){
let data29 = data27.thinking_budget;
const _errs59 = errors;
if((!((typeof data29 == "number") && (!(data29 % 1) && !isNaN(data29)))) && (data29 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/thinking_budget",schemaPath:"#/properties/thinking_config/properties/thinking_budget/type",keyword:"type",params:{type: schema13.properties.thinking_config.properties.thinking_budget.type},message:"must be integer,null"}];
return false;
}
if(errors === _errs59){
if(typeof data29 == "number"){
if(data29 < -1 || isNaN(data29)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/thinking_budget",schemaPath:"#/properties/thinking_config/properties/thinking_budget/minimum",keyword:"minimum",params:{comparison: ">=", limit: -1},message:"must be >= -1"}];
return false;
}
}
}
var valid4 = _errs59 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data27.includeThoughts !== undefined){
let data30 = data27.includeThoughts;
const _errs61 = errors;
if((typeof data30 !== "boolean") && (data30 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/includeThoughts",schemaPath:"#/properties/thinking_config/properties/includeThoughts/type",keyword:"type",params:{type: schema13.properties.thinking_config.properties.includeThoughts.type},message:"must be boolean,null"}];
return false;
}
var valid4 = _errs61 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data27.include_thoughts !== undefined){
let data31 = data27.include_thoughts;
const _errs63 = errors;
if((typeof data31 !== "boolean") && (data31 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/include_thoughts",schemaPath:"#/properties/thinking_config/properties/include_thoughts/type",keyword:"type",params:{type: schema13.properties.thinking_config.properties.include_thoughts.type},message:"must be boolean,null"}];
return false;
}
var valid4 = _errs63 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data27.thinkingLevel !== undefined){
let data32 = data27.thinkingLevel;
const _errs65 = errors;
if((typeof data32 !== "string") && (data32 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/thinkingLevel",schemaPath:"#/properties/thinking_config/properties/thinkingLevel/type",keyword:"type",params:{type: schema13.properties.thinking_config.properties.thinkingLevel.type},message:"must be string,null"}];
return false;
}
var valid4 = _errs65 === errors;
}
else {
var valid4 = true;
}
if(valid4){
if(data27.thinking_level !== undefined){
let data33 = data27.thinking_level;
const _errs67 = errors;
if((typeof data33 !== "string") && (data33 !== null)){
validate41.errors = [{instancePath:instancePath+"/thinking_config/thinking_level",schemaPath:"#/properties/thinking_config/properties/thinking_level/type",keyword:"type",params:{type: schema13.properties.thinking_config.properties.thinking_level.type},message:"must be string,null"}];
return false;
}
var valid4 = _errs67 === errors;
}
else {
var valid4 = true;
}
}
}
}
}
}
}
}
var valid0 = _errs55 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
validate41.errors = vErrors;
return errors === 0;
}


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.contents === undefined) && (missing0 = "contents")){
validate21.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.contents !== undefined){
let data0 = data.contents;
const _errs1 = errors;
if(errors === _errs1){
if(Array.isArray(data0)){
if(data0.length < 1){
validate21.errors = [{instancePath:instancePath+"/contents",schemaPath:"#/properties/contents/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"}];
return false;
}
else {
var valid1 = true;
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
const _errs3 = errors;
if(!(validate22(data0[i0], {instancePath:instancePath+"/contents/" + i0,parentData:data0,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
var valid1 = _errs3 === errors;
if(!valid1){
break;
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/contents",schemaPath:"#/properties/contents/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.systemInstruction !== undefined){
let data2 = data.systemInstruction;
const _errs4 = errors;
if((!(data2 && typeof data2 == "object" && !Array.isArray(data2))) && (data2 !== null)){
validate21.errors = [{instancePath:instancePath+"/systemInstruction",schemaPath:"#/properties/systemInstruction/type",keyword:"type",params:{type: schema6.properties.systemInstruction.type},message:"must be object,null"}];
return false;
}
if(errors === _errs4){
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
let missing1;
if((data2.parts === undefined) && (missing1 = "parts")){
validate21.errors = [{instancePath:instancePath+"/systemInstruction",schemaPath:"#/properties/systemInstruction/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data2.parts !== undefined){
let data3 = data2.parts;
const _errs6 = errors;
if(errors === _errs6){
if(Array.isArray(data3)){
var valid3 = true;
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
const _errs8 = errors;
if(!(validate23(data3[i1], {instancePath:instancePath+"/systemInstruction/parts/" + i1,parentData:data3,parentDataProperty:i1,rootData}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
var valid3 = _errs8 === errors;
if(!valid3){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/systemInstruction/parts",schemaPath:"#/properties/systemInstruction/properties/parts/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
}
}
}
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.system_instruction !== undefined){
let data5 = data.system_instruction;
const _errs9 = errors;
if((!(data5 && typeof data5 == "object" && !Array.isArray(data5))) && (data5 !== null)){
validate21.errors = [{instancePath:instancePath+"/system_instruction",schemaPath:"#/properties/system_instruction/type",keyword:"type",params:{type: schema6.properties.system_instruction.type},message:"must be object,null"}];
return false;
}
if(errors === _errs9){
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
let missing2;
if((data5.parts === undefined) && (missing2 = "parts")){
validate21.errors = [{instancePath:instancePath+"/system_instruction",schemaPath:"#/properties/system_instruction/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data5.parts !== undefined){
let data6 = data5.parts;
const _errs11 = errors;
if(errors === _errs11){
if(Array.isArray(data6)){
var valid5 = true;
const len2 = data6.length;
for(let i2=0; i2<len2; i2++){
const _errs13 = errors;
if(!(validate23(data6[i2], {instancePath:instancePath+"/system_instruction/parts/" + i2,parentData:data6,parentDataProperty:i2,rootData}))){
vErrors = vErrors === null ? validate23.errors : vErrors.concat(validate23.errors);
errors = vErrors.length;
}
var valid5 = _errs13 === errors;
if(!valid5){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/system_instruction/parts",schemaPath:"#/properties/system_instruction/properties/parts/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
}
}
}
}
var valid0 = _errs9 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tools !== undefined){
let data8 = data.tools;
const _errs14 = errors;
if((!(Array.isArray(data8))) && (data8 !== null)){
validate21.errors = [{instancePath:instancePath+"/tools",schemaPath:"#/properties/tools/type",keyword:"type",params:{type: schema6.properties.tools.type},message:"must be array,null"}];
return false;
}
if(errors === _errs14){
if(Array.isArray(data8)){
var valid6 = true;
const len3 = data8.length;
for(let i3=0; i3<len3; i3++){
let data9 = data8[i3];
const _errs16 = errors;
if(errors === _errs16){
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.functionDeclarations !== undefined){
let data10 = data9.functionDeclarations;
const _errs18 = errors;
if(errors === _errs18){
if(Array.isArray(data10)){
var valid8 = true;
const len4 = data10.length;
for(let i4=0; i4<len4; i4++){
let data11 = data10[i4];
const _errs20 = errors;
if(errors === _errs20){
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
let missing3;
if((data11.name === undefined) && (missing3 = "name")){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4,schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/required",keyword:"required",params:{missingProperty: missing3},message:"must have required property '"+missing3+"'"}];
return false;
}
else {
if(data11.name !== undefined){
let data12 = data11.name;
const _errs22 = errors;
if(errors === _errs22){
if(typeof data12 === "string"){
if(func2(data12) < 1){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4+"/name",schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4+"/name",schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid9 = _errs22 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data11.description !== undefined){
const _errs24 = errors;
if(typeof data11.description !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4+"/description",schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid9 = _errs24 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data11.parameters !== undefined){
let data14 = data11.parameters;
const _errs26 = errors;
if(!(data14 && typeof data14 == "object" && !Array.isArray(data14))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4+"/parameters",schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/properties/parameters/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid9 = _errs26 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data11.parametersJsonSchema !== undefined){
let data15 = data11.parametersJsonSchema;
const _errs28 = errors;
if(!(data15 && typeof data15 == "object" && !Array.isArray(data15))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4+"/parametersJsonSchema",schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/properties/parametersJsonSchema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid9 = _errs28 === errors;
}
else {
var valid9 = true;
}
if(valid9){
if(data11.parameters_json_schema !== undefined){
let data16 = data11.parameters_json_schema;
const _errs30 = errors;
if(!(data16 && typeof data16 == "object" && !Array.isArray(data16))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4+"/parameters_json_schema",schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/properties/parameters_json_schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid9 = _errs30 === errors;
}
else {
var valid9 = true;
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations/" + i4,schemaPath:"#/properties/tools/items/properties/functionDeclarations/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid8 = _errs20 === errors;
if(!valid8){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/functionDeclarations",schemaPath:"#/properties/tools/items/properties/functionDeclarations/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid7 = _errs18 === errors;
}
else {
var valid7 = true;
}
if(valid7){
if(data9.function_declarations !== undefined){
let data17 = data9.function_declarations;
const _errs32 = errors;
if(errors === _errs32){
if(Array.isArray(data17)){
var valid10 = true;
const len5 = data17.length;
for(let i5=0; i5<len5; i5++){
let data18 = data17[i5];
const _errs34 = errors;
if(errors === _errs34){
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
let missing4;
if((data18.name === undefined) && (missing4 = "name")){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5,schemaPath:"#/properties/tools/items/properties/function_declarations/items/required",keyword:"required",params:{missingProperty: missing4},message:"must have required property '"+missing4+"'"}];
return false;
}
else {
if(data18.name !== undefined){
let data19 = data18.name;
const _errs36 = errors;
if(errors === _errs36){
if(typeof data19 === "string"){
if(func2(data19) < 1){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5+"/name",schemaPath:"#/properties/tools/items/properties/function_declarations/items/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"}];
return false;
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5+"/name",schemaPath:"#/properties/tools/items/properties/function_declarations/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid11 = _errs36 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data18.description !== undefined){
const _errs38 = errors;
if(typeof data18.description !== "string"){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5+"/description",schemaPath:"#/properties/tools/items/properties/function_declarations/items/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid11 = _errs38 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data18.parameters !== undefined){
let data21 = data18.parameters;
const _errs40 = errors;
if(!(data21 && typeof data21 == "object" && !Array.isArray(data21))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5+"/parameters",schemaPath:"#/properties/tools/items/properties/function_declarations/items/properties/parameters/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid11 = _errs40 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data18.parametersJsonSchema !== undefined){
let data22 = data18.parametersJsonSchema;
const _errs42 = errors;
if(!(data22 && typeof data22 == "object" && !Array.isArray(data22))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5+"/parametersJsonSchema",schemaPath:"#/properties/tools/items/properties/function_declarations/items/properties/parametersJsonSchema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid11 = _errs42 === errors;
}
else {
var valid11 = true;
}
if(valid11){
if(data18.parameters_json_schema !== undefined){
let data23 = data18.parameters_json_schema;
const _errs44 = errors;
if(!(data23 && typeof data23 == "object" && !Array.isArray(data23))){
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5+"/parameters_json_schema",schemaPath:"#/properties/tools/items/properties/function_declarations/items/properties/parameters_json_schema/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid11 = _errs44 === errors;
}
else {
var valid11 = true;
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations/" + i5,schemaPath:"#/properties/tools/items/properties/function_declarations/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid10 = _errs34 === errors;
if(!valid10){
break;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3+"/function_declarations",schemaPath:"#/properties/tools/items/properties/function_declarations/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid7 = _errs32 === errors;
}
else {
var valid7 = true;
}
}
}
else {
validate21.errors = [{instancePath:instancePath+"/tools/" + i3,schemaPath:"#/properties/tools/items/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid6 = _errs16 === errors;
if(!valid6){
break;
}
}
}
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.toolConfig !== undefined){
const _errs46 = errors;
if(!(validate38(data.toolConfig, {instancePath:instancePath+"/toolConfig",parentData:data,parentDataProperty:"toolConfig",rootData}))){
vErrors = vErrors === null ? validate38.errors : vErrors.concat(validate38.errors);
errors = vErrors.length;
}
var valid0 = _errs46 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.tool_config !== undefined){
const _errs47 = errors;
if(!(validate38(data.tool_config, {instancePath:instancePath+"/tool_config",parentData:data,parentDataProperty:"tool_config",rootData}))){
vErrors = vErrors === null ? validate38.errors : vErrors.concat(validate38.errors);
errors = vErrors.length;
}
var valid0 = _errs47 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.generationConfig !== undefined){
const _errs48 = errors;
if(!(validate41(data.generationConfig, {instancePath:instancePath+"/generationConfig",parentData:data,parentDataProperty:"generationConfig",rootData}))){
vErrors = vErrors === null ? validate41.errors : vErrors.concat(validate41.errors);
errors = vErrors.length;
}
var valid0 = _errs48 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.generation_config !== undefined){
const _errs49 = errors;
if(!(validate41(data.generation_config, {instancePath:instancePath+"/generation_config",parentData:data,parentDataProperty:"generation_config",rootData}))){
vErrors = vErrors === null ? validate41.errors : vErrors.concat(validate41.errors);
errors = vErrors.length;
}
var valid0 = _errs49 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.safetySettings !== undefined){
let data28 = data.safetySettings;
const _errs50 = errors;
if((!(Array.isArray(data28))) && (data28 !== null)){
validate21.errors = [{instancePath:instancePath+"/safetySettings",schemaPath:"#/properties/safetySettings/type",keyword:"type",params:{type: schema6.properties.safetySettings.type},message:"must be array,null"}];
return false;
}
var valid0 = _errs50 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.safety_settings !== undefined){
let data29 = data.safety_settings;
const _errs52 = errors;
if((!(Array.isArray(data29))) && (data29 !== null)){
validate21.errors = [{instancePath:instancePath+"/safety_settings",schemaPath:"#/properties/safety_settings/type",keyword:"type",params:{type: schema6.properties.safety_settings.type},message:"must be array,null"}];
return false;
}
var valid0 = _errs52 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.cachedContent !== undefined){
let data30 = data.cachedContent;
const _errs54 = errors;
if((typeof data30 !== "string") && (data30 !== null)){
validate21.errors = [{instancePath:instancePath+"/cachedContent",schemaPath:"#/properties/cachedContent/type",keyword:"type",params:{type: schema6.properties.cachedContent.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs54 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.cached_content !== undefined){
let data31 = data.cached_content;
const _errs56 = errors;
if((typeof data31 !== "string") && (data31 !== null)){
validate21.errors = [{instancePath:instancePath+"/cached_content",schemaPath:"#/properties/cached_content/type",keyword:"type",params:{type: schema6.properties.cached_content.type},message:"must be string,null"}];
return false;
}
var valid0 = _errs56 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
}
}
}
}
}
else {
validate21.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate21.errors = vErrors;
return errors === 0;
}
